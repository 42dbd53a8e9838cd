import type { FeatureLike } from 'ol/Feature'
import CircleStyle from 'ol/style/Circle'
import Fill from 'ol/style/Fill'
import Stroke from 'ol/style/Stroke'
import Style, { type StyleFunction } from 'ol/style/Style'
import Text from 'ol/style/Text'
import { mapConfig, zoomForResolution } from './config.ts'
import type { ColorScheme } from './page-scheme.ts'

/**
 * Style functions for the server's vector tiles and the map's own overlays. They are pure: the output
 * depends only on the feature, the resolution and the options given when the function is made (the
 * page's colour scheme, high contrast for sunlight, the hatch pattern for road reserves), so tests call
 * them directly.
 */
export type StyleOptions = { scheme: ColorScheme; highContrast: boolean }

const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", Arial, sans-serif'

/** Street widths in px at z16, scaled by zoom: wider roads stay wider at every zoom. */
const streetWidth = { main: 9, street: 6, alley: 2.5 } as const
export type StreetClass = keyof typeof streetWidth

/**
 * The colours of one look of the map. The basemap's shapes lie under the planning colours, which at the
 * default opacity leave about half of what is below showing: so streets differ from the land by a step
 * of lightness large enough to survive that (by day white streets edged in dark grey on pale land, at
 * night light streets edged in near-black on dark land), and every name (drawn over the plan, by the
 * labels layer) is text on a halo of the opposite lightness. The planning colours themselves are the
 * plans' own (land-use.ts) in every look.
 */
export type Palette = {
  /** The map's background: where the basemap draws nothing, and the sea around the national outline. */
  land: string
  water: string
  waterLine: string
  waterText: string
  /** Faint land-use tints (OpenStreetMap extracts) by kind, `other` for the rest. */
  landuse: Record<'residential' | 'commercial' | 'industrial' | 'farmland' | 'aquaculture' | 'other', string>
  green: string
  block: string
  blockLine: string
  ward: string
  streets: Record<StreetClass, { fill: string; casing: string }>
  text: string
  halo: string
  placeText: string
  landmark: string
  landmarkText: string
  zoneText: string
  parcel: string
  parcelFaint: string
  parcelText: string
  nationalLand: string
  coast: string
  nationalText: string
  provinceText: string
}

const palettes: Record<ColorScheme, Palette> = {
  light: {
    land: '#eceff1',
    water: '#9fd3f0',
    waterLine: '#5aa9d6',
    waterText: '#0b5394',
    landuse: {
      residential: '#efeae3',
      commercial: '#f4e4e4',
      industrial: '#ebe3f0',
      farmland: '#eef3d9',
      aquaculture: '#dcecf5',
      other: '#f0efec',
    },
    green: '#c6e8b5',
    block: '#e6e1d8',
    blockLine: '#cfc8ba',
    ward: '#7e3fb0',
    streets: {
      main: { fill: '#ffc95c', casing: '#a06410' },
      street: { fill: '#ffffff', casing: '#7c7c7c' },
      alley: { fill: '#ffffff', casing: '#999999' },
    },
    text: '#1f2937',
    halo: '#ffffff',
    placeText: '#374151',
    landmark: '#9a3412',
    landmarkText: '#7c2d12',
    zoneText: '#3f3f46',
    parcel: '#334155',
    parcelFaint: 'rgba(51,65,85,0.55)',
    parcelText: '#111827',
    nationalLand: '#f4efe4',
    coast: '#9a7b4f',
    nationalText: '#7c2d12',
    provinceText: '#6b4f2a',
  },
  dark: {
    land: '#1a1f26',
    water: '#1f4d73',
    waterLine: '#4a80ad',
    waterText: '#9ccbf0',
    landuse: {
      residential: '#22272e',
      commercial: '#2c2428',
      industrial: '#28253a',
      farmland: '#232a1e',
      aquaculture: '#1c2e3b',
      other: '#20252c',
    },
    green: '#1e3a28',
    block: '#262c35',
    blockLine: '#343c47',
    ward: '#c084fc',
    streets: {
      main: { fill: '#c0914a', casing: '#0b0e12' },
      street: { fill: '#7d8794', casing: '#0b0e12' },
      alley: { fill: '#56606c', casing: '#0b0e12' },
    },
    text: '#e5e7eb',
    halo: '#12161b',
    placeText: '#d1d5db',
    landmark: '#fb923c',
    landmarkText: '#fdba74',
    zoneText: '#e5e7eb',
    parcel: '#cbd5e1',
    parcelFaint: 'rgba(203,213,225,0.5)',
    parcelText: '#f1f5f9',
    nationalLand: '#2b323c',
    coast: '#8c7a5b',
    nationalText: '#fdba74',
    provinceText: '#e2cfae',
  },
}

/** Every name in one colour: high contrast writes them all in the scheme's strongest text colour. */
const allText = (color: string) => ({
  text: color,
  waterText: color,
  placeText: color,
  landmarkText: color,
  zoneText: color,
  parcelText: color,
  nationalText: color,
  provinceText: color,
})

/**
 * High contrast, for sunlight, over either scheme: names in black on white (white on black at night),
 * street edges and the lines drawn over the plan at full strength, night streets lighter.
 */
const highContrast: Record<ColorScheme, Partial<Palette>> = {
  light: {
    ...allText('#000000'),
    ward: '#581c87',
    streets: {
      main: { fill: '#ffc95c', casing: '#6b3f00' },
      street: { fill: '#ffffff', casing: '#404040' },
      alley: { fill: '#ffffff', casing: '#595959' },
    },
    parcel: '#000000',
    parcelFaint: 'rgba(0,0,0,0.55)',
  },
  dark: {
    ...allText('#ffffff'),
    halo: '#000000',
    ward: '#e9d5ff',
    streets: {
      main: { fill: '#f0b85a', casing: '#000000' },
      street: { fill: '#c2c9d3', casing: '#000000' },
      alley: { fill: '#8d96a3', casing: '#000000' },
    },
    parcel: '#ffffff',
    parcelFaint: 'rgba(255,255,255,0.55)',
  },
}

/** The colours of a look: the scheme's, with high contrast's over them when it is on. */
export function paletteFor(o: StyleOptions): Palette {
  return o.highContrast ? { ...palettes[o.scheme], ...highContrast[o.scheme] } : palettes[o.scheme]
}

/** Memoises styles by key, since style functions run for every feature on every frame. */
function memo() {
  const cache = new Map<string, Style | Style[]>()
  return <S extends Style | Style[]>(key: string, make: () => S): S => {
    let s = cache.get(key) as S | undefined
    if (!s) {
      s = make()
      cache.set(key, s)
    }
    return s
  }
}

const str = (f: FeatureLike, key: string) => {
  const v = f.get(key) as unknown
  return v === undefined || v === null ? '' : String(v)
}

function label(
  text: string,
  o: StyleOptions,
  p: Palette,
  extra: {
    size?: number
    weight?: number
    color?: string
    placement?: 'line' | 'point'
    overflow?: boolean
    italic?: boolean
  } = {},
) {
  const size = (extra.size ?? 12) + (o.highContrast ? 1 : 0)
  return new Text({
    text,
    font: `${extra.italic ? 'italic ' : ''}${extra.weight ?? 600} ${size}px ${FONT}`,
    placement: extra.placement ?? 'point',
    overflow: extra.overflow ?? false,
    fill: new Fill({ color: extra.color ?? p.text }),
    stroke: new Stroke({ color: p.halo, width: o.highContrast ? 4 : 3 }),
  })
}

const streetClass = (f: FeatureLike): StreetClass => {
  const c = str(f, 'class')
  return c === 'main' || c === 'alley' ? c : 'street'
}

export function streetWidthPx(cls: StreetClass, zoom: number): number {
  return Math.max(1, streetWidth[cls] * 2 ** ((zoom - 16) * 0.6))
}

/** Zoom from which a class of street gets its name drawn along it. */
export const streetLabelZoom: Record<StreetClass, number> = { main: 14, street: 15, alley: 17 }

/** Place names by importance: a city's name is the largest and drawn over the rest. */
const placeLabel: Record<string, { size: number; weight: number; z: number }> = {
  city: { size: 17, weight: 700, z: 48 },
  town: { size: 15, weight: 700, z: 47 },
  archipelago: { size: 14, weight: 700, z: 47 },
  suburb: { size: 13, weight: 600, z: 46 },
  village: { size: 13, weight: 600, z: 46 },
  island: { size: 13, weight: 600, z: 46 },
}

const landuseKind = (kind: string): keyof Palette['landuse'] => {
  if (kind === 'retail') return 'commercial'
  return kind === 'residential' ||
    kind === 'commercial' ||
    kind === 'industrial' ||
    kind === 'farmland' ||
    kind === 'aquaculture'
    ? kind
    : 'other'
}

/**
 * The basemap's shapes: water, land use, green, blocks, ward boundaries and streets by class with their
 * casing. Drawn under the planning layer; its names are createBasemapLabelStyle's, drawn over it.
 */
export function createBasemapStyle(o: StyleOptions): StyleFunction {
  const p = paletteFor(o)
  const cached = memo()
  return (feature, resolution) => {
    switch (str(feature, 'layer')) {
      case 'water':
        return cached(
          'water',
          () =>
            new Style({
              fill: new Fill({ color: p.water }),
              stroke: new Stroke({ color: p.waterLine, width: 1 }),
              zIndex: 1,
            }),
        )
      case 'landuse': {
        const kind = landuseKind(str(feature, 'kind'))
        return cached(`landuse:${kind}`, () => new Style({ fill: new Fill({ color: p.landuse[kind] }), zIndex: 0 }))
      }
      case 'green':
        return cached('green', () => new Style({ fill: new Fill({ color: p.green }), zIndex: 2 }))
      case 'blocks':
        return cached(
          'blocks',
          () =>
            new Style({
              fill: new Fill({ color: p.block }),
              stroke: new Stroke({ color: p.blockLine, width: 1 }),
              zIndex: 3,
            }),
        )
      case 'admin_boundaries': {
        const province = str(feature, 'level') === 'province'
        return cached(
          `admin:${province}`,
          () =>
            new Style({
              stroke: new Stroke({
                color: province ? p.coast : p.ward,
                width: (province ? 1.8 : 1) + (o.highContrast ? 1 : 0),
                lineDash: province ? [10, 4, 2, 4] : [5, 4],
              }),
              zIndex: province ? 32 : 31,
            }),
        )
      }
      case 'ward_boundary':
        return cached(
          'ward',
          () =>
            new Style({
              stroke: new Stroke({ color: p.ward, width: o.highContrast ? 2.5 : 2, lineDash: [8, 5] }),
              zIndex: 30,
            }),
        )
      case 'streets': {
        const cls = streetClass(feature)
        const w = Math.round(streetWidthPx(cls, zoomForResolution(resolution)) * 2) / 2
        const rank = cls === 'main' ? 2 : cls === 'street' ? 1 : 0
        const casing = cached(
          `casing:${cls}:${w}`,
          () =>
            new Style({
              stroke: new Stroke({ color: p.streets[cls].casing, width: w + (o.highContrast ? 2.5 : 2) }),
              zIndex: 10 + rank,
            }),
        )
        const fill = cached(
          `street:${cls}:${w}`,
          () => new Style({ stroke: new Stroke({ color: p.streets[cls].fill, width: w }), zIndex: 13 + rank }),
        )
        return [casing, fill]
      }
      default:
        return undefined
    }
  }
}

/**
 * The basemap's names and points: water, places, streets along their line, landmarks. A layer of their
 * own above the planning colours (on the basemap's tiles), so a name reads at any planning opacity.
 */
export function createBasemapLabelStyle(o: StyleOptions): StyleFunction {
  const p = paletteFor(o)
  const cached = memo()
  return (feature, resolution) => {
    const name = str(feature, 'name')
    if (!name) return undefined
    const zoom = zoomForResolution(resolution)
    switch (str(feature, 'layer')) {
      case 'water':
        if (zoom < 15) return undefined
        return cached(
          `water:${name}`,
          () => new Style({ text: label(name, o, p, { italic: true, color: p.waterText, weight: 500 }), zIndex: 20 }),
        )
      case 'places': {
        const place = placeLabel[str(feature, 'kind')] ?? { size: 12, weight: 600, z: 45 }
        return cached(
          `place:${place.size}:${name}`,
          () =>
            new Style({
              text: label(name, o, p, { size: place.size, weight: place.weight, color: p.placeText, overflow: true }),
              zIndex: place.z,
            }),
        )
      }
      case 'streets':
        if (zoom < streetLabelZoom[streetClass(feature)]) return undefined
        return cached(
          `street:${name}`,
          () => new Style({ text: label(name, o, p, { placement: 'line', size: 12, weight: 600 }), zIndex: 40 }),
        )
      case 'admin_labels': {
        // Provinces up to z10, where their wards' names take over.
        const province = str(feature, 'level') === 'province'
        if (province ? zoom >= 10 : zoom < 11) return undefined
        return cached(
          `admin:${province}:${name}`,
          () =>
            new Style({
              text: label(name, o, p, {
                size: province ? 13 : 12,
                weight: province ? 700 : 600,
                color: province ? p.provinceText : p.placeText,
                overflow: province,
              }),
              zIndex: province ? 44 : 43,
            }),
        )
      }
      case 'landmarks':
        if (zoom < 16) return undefined
        return cached(
          `landmark:${name}`,
          () =>
            new Style({
              image: new CircleStyle({
                radius: 3.5,
                fill: new Fill({ color: p.landmark }),
                stroke: new Stroke({ color: p.halo, width: 1.5 }),
              }),
              text: label(name, o, p, { size: 12, color: p.landmarkText, weight: 600 }),
              zIndex: 41,
            }),
        )
      default:
        return undefined
    }
  }
}

/** "#ffa0ff" → "rgba(255,160,255,a)"; an unreadable colour becomes neutral grey. */
export function hexToRgba(hex: string, alpha: number): string {
  const m = /^#?([0-9a-f]{6})$/i.exec(hex.trim())
  if (!m) return `rgba(204,204,204,${alpha})`
  const n = parseInt(m[1]!, 16)
  return `rgba(${(n >> 16) & 255},${(n >> 8) & 255},${n & 255},${alpha})`
}

/** A darker shade of a zone colour for its outline, so pale colours still show an edge. */
export function darken(hex: string, factor = 0.55): string {
  const m = /^#?([0-9a-f]{6})$/i.exec(hex.trim())
  if (!m) return '#666666'
  const n = parseInt(m[1]!, 16)
  const c = [(n >> 16) & 255, (n >> 8) & 255, n & 255].map((v) => Math.round(v * factor))
  return `#${c.map((v) => v.toString(16).padStart(2, '0')).join('')}`
}

/**
 * Diagonal red hatching for road reserves, drawn once on a small canvas; null where there is no
 * canvas (the style then falls back to a flat translucent red).
 */
export function createHatchPattern(doc: Document = document): CanvasPattern | null {
  const size = 10
  const canvas = doc.createElement('canvas')
  canvas.width = size
  canvas.height = size
  const ctx = canvas.getContext('2d')
  if (!ctx) return null
  ctx.strokeStyle = 'rgba(220,38,38,0.85)'
  ctx.lineWidth = 2
  ctx.beginPath()
  // Three strokes so the lines join across tile edges of the pattern.
  for (const off of [-size, 0, size]) {
    ctx.moveTo(off, size)
    ctx.lineTo(off + size, 0)
  }
  ctx.stroke()
  return ctx.createPattern(canvas, 'repeat')
}

/** Zoom range [from, to) in which planning zones carry their code and block labels: up to where parcel numbers begin. */
export const zoneLabelZooms = [14.5, mapConfig.parcelMinZoom] as const

/** A zone's fill keeps this much of its colour before the layer's opacity, so the basemap shows through a little even at 100 %. */
export const ZONE_FILL_ALPHA = 0.9

export function createPlanningStyle(o: StyleOptions & { reserveFill: CanvasPattern | string }): StyleFunction {
  const p = paletteFor(o)
  const cached = memo()
  return (feature, resolution) => {
    const layer = str(feature, 'layer')
    if (layer === 'zones') {
      const color = str(feature, 'color') || '#cccccc'
      const zoom = zoomForResolution(resolution)
      const base = cached(
        `zone:${color}`,
        () =>
          new Style({
            fill: new Fill({ color: hexToRgba(color, ZONE_FILL_ALPHA) }),
            stroke: new Stroke({ color: darken(color), width: o.highContrast ? 1.6 : 1 }),
            zIndex: 1,
          }),
      )
      const code = str(feature, 'land_use_code')
      // Zone codes label the overview; where parcel numbers are drawn (z16) they would sit on them, so the legend names the codes.
      // A zone across tile edges comes as one piece per tile; only the piece its tile marks "label" carries the codes.
      if (!code || feature.get('label') === false || zoom < zoneLabelZooms[0] || zoom >= zoneLabelZooms[1]) return base
      const block = str(feature, 'block_code')
      const text = block ? `${code}\n${block}` : code
      return [
        base,
        cached(
          `zone-label:${text}`,
          () => new Style({ text: label(text, o, p, { size: 12, weight: 700, color: p.zoneText }), zIndex: 3 }),
        ),
      ]
    }
    if (layer === 'road_reserves') {
      return cached(
        'reserve',
        () =>
          new Style({
            fill: new Fill({ color: o.reserveFill }),
            stroke: new Stroke({ color: '#b91c1c', width: o.highContrast ? 2.5 : 1.8, lineDash: [6, 4] }),
            zIndex: 2,
          }),
      )
    }
    return undefined
  }
}

/**
 * Parcel outlines with the parcel number from z16, drawn fainter at z16 where parcels are a few pixels
 * wide; from z17 the number shows even where the parcel is narrower than it. The transparent fill is there for hit detection: hovering anywhere inside a parcel finds it,
 * not only on its outline.
 */
export function createParcelStyle(o: StyleOptions): StyleFunction {
  const p = paletteFor(o)
  const cached = memo()
  const outline = (level: 'faint' | 'full') =>
    new Style({
      stroke: new Stroke({
        color: level === 'faint' ? p.parcelFaint : p.parcel,
        // Heavier in high contrast, yet still lighter at z16, where parcels a few pixels wide would bury the plan under lines.
        width: level === 'faint' ? (o.highContrast ? 0.8 : 0.6) : o.highContrast ? 1.4 : 0.9,
      }),
      fill: new Fill({ color: 'rgba(0,0,0,0)' }),
    })
  return (feature, resolution) => {
    const zoom = zoomForResolution(resolution)
    if (zoom < mapConfig.parcelMinZoom - 0.01) return undefined
    const level = zoom < mapConfig.parcelMinZoom + 1 ? 'faint' : 'full'
    const no = str(feature, 'parcel_no')
    // A piece of a parcel cut by a tile edge: the number goes on the piece in the tile marked "label".
    if (!no || feature.get('label') === false) return cached(`parcel:${level}`, () => outline(level))
    return cached(`parcel:${level}:${no}`, () => {
      const s = outline(level)
      // From z17 (the working zooms) a number may run past its parcel's edges, as a surveyor reads a
      // cadastral sheet; the declutter group keeps numbers from covering each other or the street names.
      s.setText(
        label(no, o, p, {
          size: level === 'faint' ? 10 : 11,
          weight: 600,
          color: p.parcelText,
          overflow: level === 'full',
        }),
      )
      return s
    })
  }
}

/**
 * The legend's symbols in the map's look: a zone's colour as the map shows it (at the planning layer's
 * opacity over the land) and the parcel outline with its number.
 */
export function legendSwatches(o: StyleOptions, planningOpacity: number) {
  const p = paletteFor(o)
  return {
    zone: (color: string) => {
      const shown = hexToRgba(color, Math.round(ZONE_FILL_ALPHA * planningOpacity * 1000) / 1000)
      return `linear-gradient(${shown}, ${shown}), ${p.land}`
    },
    parcel: { borderColor: p.parcel, color: p.parcelText },
    /** Today's boundaries as admin_boundaries draws them: provinces in the coast's colour, wards in the wards'. */
    province: p.coast,
    ward: p.ward,
  }
}

/** The parcel under the mouse (desktop hover), drawn from the parcels tiles themselves. */
export const hoverStyle = new Style({
  stroke: new Stroke({ color: '#0284c7', width: 3 }),
  fill: new Fill({ color: 'rgba(2,132,199,0.12)' }),
})

/** The looked-up parcel: a dark line on a white casing reads on any planning colour and in sunlight. */
export const selectedParcelStyle = [
  new Style({ stroke: new Stroke({ color: '#ffffff', width: 7 }), zIndex: 1 }),
  new Style({
    stroke: new Stroke({ color: '#0c4a6e', width: 3.5 }),
    fill: new Fill({ color: 'rgba(12,74,110,0.14)' }),
    zIndex: 2,
  }),
]

/** A dropped pin or a lookup point: a red dot with a white ring. */
export function pinStyle(kind: 'pin' | 'lookup'): Style {
  return new Style({
    image: new CircleStyle({
      radius: kind === 'pin' ? 9 : 6,
      fill: new Fill({ color: kind === 'pin' ? '#dc2626' : '#0c4a6e' }),
      stroke: new Stroke({ color: '#ffffff', width: 3 }),
    }),
    zIndex: 10,
  })
}

/** Where the data is, at zooms too small to see it: an outlined box with a label. */
export function createCoverageStyle(o: StyleOptions): Style {
  const p = paletteFor(o)
  return new Style({
    stroke: new Stroke({ color: '#c2410c', width: 2.5 }),
    fill: new Fill({ color: 'rgba(194,65,12,0.12)' }),
    text: new Text({
      text: 'Vùng có dữ liệu',
      font: `700 13px ${FONT}`,
      overflow: true,
      offsetY: -18,
      fill: new Fill({ color: p.nationalText }),
      stroke: new Stroke({ color: p.halo, width: 4 }),
    }),
  })
}

/** The zoom from which the basemap's tiles draw the provinces of today (server/src/tiles/layers.ts, admin_boundaries). */
export const BOUNDARIES_MIN_ZOOM = 6

/**
 * The bundled national outline at small zooms: land, and the two archipelagos labelled as Việt Nam. Where
 * the basemap draws today's boundaries (from z6, `boundaries`), their lines and names take over from the
 * outline's hand-drawn coast and its province names: the outline keeps only its land tint there.
 */
export function createNationalStyle(
  o: StyleOptions,
  drawn: { boundaries: boolean } = { boundaries: false },
): StyleFunction {
  const p = paletteFor(o)
  const cached = memo()
  return (feature, resolution) => {
    const kind = str(feature, 'kind')
    const name = str(feature, 'name')
    const byBoundaries = drawn.boundaries && zoomForResolution(resolution) >= BOUNDARIES_MIN_ZOOM
    if (kind === 'mainland' || kind === 'island') {
      if (byBoundaries) return cached(`${kind}:land`, () => new Style({ fill: new Fill({ color: p.nationalLand }) }))
      return cached(
        kind,
        () =>
          new Style({ fill: new Fill({ color: p.nationalLand }), stroke: new Stroke({ color: p.coast, width: 1.2 }) }),
      )
    }
    if (kind === 'archipelago') {
      return cached(
        `arch:${name}`,
        () =>
          new Style({
            stroke: new Stroke({ color: p.coast, width: 1.2, lineDash: [4, 4] }),
            fill: new Fill({ color: hexToRgba(p.nationalLand, 0.35) }),
            text: label(name, o, p, { size: 12, weight: 700, color: p.nationalText, overflow: true }),
          }),
      )
    }
    if (kind === 'country-label') {
      return cached(
        `country:${name}`,
        () => new Style({ text: label(name, o, p, { size: 14, weight: 800, color: p.nationalText, overflow: true }) }),
      )
    }
    if (kind === 'province-label') {
      // Shown once the country is more than a thumbnail; the short "TP." as on Vietnamese maps.
      if (zoomForResolution(resolution) < 6 || byBoundaries) return undefined
      return cached(
        `province:${name}`,
        () =>
          new Style({
            text: label(name.replace(/^Thành phố /, 'TP. '), o, p, {
              size: 12,
              weight: 600,
              color: p.provinceText,
              overflow: true,
            }),
          }),
      )
    }
    if (kind === 'sea-label') {
      return cached(
        `sea:${name}`,
        () =>
          new Style({
            text: label(name, o, p, { size: 14, weight: 600, color: p.waterText, italic: true, overflow: true }),
          }),
      )
    }
    return undefined
  }
}
