/** What one OpenStreetMap feature becomes in `base_features`, or null when the basemap does not draw it. */
export type BaseFeature = {
  kind: 'road' | 'water' | 'green' | 'block' | 'landuse' | 'place' | 'landmark' | 'ward_boundary'
  subkind: string
  name: string
}

/** GDAL's OSM layers (its default osmconf.ini): points, lines, multilinestrings, multipolygons, other_relations. */
export const osmLayers = ['points', 'lines', 'multipolygons'] as const
export type OsmLayer = (typeof osmLayers)[number]

// Road classes as the basemap's streets layer knows them: main roads from z12, streets from z14, alleys (hẻm) from z14.
const roadClass: Record<string, string> = {
  motorway: 'main',
  trunk: 'main',
  primary: 'main',
  secondary: 'main',
  motorway_link: 'main',
  trunk_link: 'main',
  primary_link: 'main',
  secondary_link: 'main',
  tertiary: 'street',
  tertiary_link: 'street',
  residential: 'street',
  unclassified: 'street',
  living_street: 'street',
  road: 'street',
  service: 'alley',
  pedestrian: 'alley',
  track: 'alley',
  footway: 'alley',
  path: 'alley',
}
const waterways = new Set(['river', 'canal', 'stream', 'drain', 'ditch'])
const greenLanduse = new Set(['grass', 'forest', 'recreation_ground', 'meadow', 'village_green', 'cemetery', 'orchard'])
const greenLeisure = new Set(['park', 'garden', 'pitch', 'playground', 'golf_course'])
const greenNatural = new Set(['wood', 'scrub', 'grassland', 'wetland'])
const landuses = new Set([
  'residential',
  'commercial',
  'retail',
  'industrial',
  'farmland',
  'farmyard',
  'construction',
  'military',
  'education',
  'religious',
  'aquaculture',
])
const places = new Set([
  'city',
  'town',
  'suburb',
  'quarter',
  'village',
  'neighbourhood',
  'hamlet',
  'island',
  'islet',
  'archipelago',
])
const amenities = new Set([
  'school',
  'university',
  'college',
  'hospital',
  'clinic',
  'marketplace',
  'place_of_worship',
  'townhall',
  'police',
  'post_office',
  'bank',
])

/** `"amenity"=>"school","name:en"=>"…"`: GDAL's hstore text of the tags it has no column for. */
export function otherTags(text: unknown): Record<string, string> {
  const out: Record<string, string> = {}
  if (typeof text !== 'string') return out
  for (const m of text.matchAll(/"((?:[^"\\]|\\.)*)"=>"((?:[^"\\]|\\.)*)"/g))
    out[m[1]!.replace(/\\(.)/g, '$1')] = m[2]!.replace(/\\(.)/g, '$1')
  return out
}

const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '')

/** The basemap's reading of an OSM feature's tags (GDAL's columns plus its other_tags). */
export function classifyOsm(layer: OsmLayer, props: Record<string, unknown>): BaseFeature | null {
  const tags: Record<string, string> = { ...otherTags(props.other_tags) }
  for (const [k, v] of Object.entries(props)) if (k !== 'other_tags' && typeof v === 'string' && v !== '') tags[k] = v
  const name = text(tags.name)
  const f = (kind: BaseFeature['kind'], subkind: string): BaseFeature => ({ kind, subkind, name })
  if (layer === 'lines') {
    const cls = tags.highway ? roadClass[tags.highway] : undefined
    if (cls) return f('road', cls)
    if (tags.waterway && waterways.has(tags.waterway)) return f('water', tags.waterway)
    return null
  }
  if (layer === 'points') {
    if (tags.place && places.has(tags.place) && name) return f('place', tags.place)
    if (tags.amenity && amenities.has(tags.amenity) && name) return f('landmark', tags.amenity)
    return null
  }
  if (tags.building && tags.building !== 'no') return f('block', 'building')
  if (
    tags.natural === 'water' ||
    tags.waterway === 'riverbank' ||
    tags.landuse === 'reservoir' ||
    tags.landuse === 'basin'
  )
    return f('water', tags.water ?? 'water')
  if (
    (tags.leisure && greenLeisure.has(tags.leisure)) ||
    (tags.landuse && greenLanduse.has(tags.landuse)) ||
    (tags.natural && greenNatural.has(tags.natural))
  )
    return f('green', tags.leisure ?? tags.landuse ?? tags.natural ?? '')
  if (tags.amenity && amenities.has(tags.amenity) && name) return f('landmark', tags.amenity)
  if (tags.landuse && landuses.has(tags.landuse)) return f('landuse', tags.landuse)
  // Wards and communes (admin_level 8) and districts (6): the lines a surveyor steers by.
  if (tags.boundary === 'administrative' && (tags.admin_level === '8' || tags.admin_level === '6'))
    return f('ward_boundary', `admin${tags.admin_level}`)
  if (tags.place && places.has(tags.place) && name) return f('place', tags.place)
  return null
}
