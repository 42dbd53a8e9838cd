import type { FeatureLike } from 'ol/Feature'
import CircleStyle from 'ol/style/Circle'
import Fill from 'ol/style/Fill'
import Stroke from 'ol/style/Stroke'
import Style, { type StyleFunction } from 'ol/style/Style'
import Text from 'ol/style/Text'
import { mapConfig, zoomForResolution } from './config.ts'

/**
 * Style functions for the server's vector tiles and the map's own overlays. They are pure: the output
 * depends only on the feature, the resolution and the options given when the function is made
 * (high contrast for sunlight, the hatch pattern for road reserves), so tests call them directly.
 */
export type StyleOptions = { highContrast: boolean }

const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", Arial, sans-serif'

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

function label(text: string, o: StyleOptions, extra: { size?: number; weight?: number; color?: string; placement?: 'line' | 'point'; overflow?: boolean; italic?: boolean } = {}) {
  const size = (extra.size ?? 12) + (o.highContrast ? 1 : 0)
  return new Text({
    text,
    font: `${extra.italic ? 'italic ' : ''}${extra.weight ?? 600} ${size}px ${FONT}`,
    placement: extra.placement ?? 'point',
    overflow: extra.overflow ?? false,
    fill: new Fill({ color: o.highContrast ? '#000000' : (extra.color ?? '#1f2937') }),
    stroke: new Stroke({ color: '#ffffff', width: o.highContrast ? 4 : 3 }),
  })
}

/** Street widths in px at z16, scaled by zoom: wider roads stay wider at every zoom. */
const streetWidth = { main: 9, street: 6, alley: 2.5 } as const
export type StreetClass = keyof typeof streetWidth
const streetClass = (f: FeatureLike): StreetClass => {
  const c = str(f, 'class')
  return c === 'main' || c === 'alley' ? c : 'street'
}

export function streetWidthPx(cls: StreetClass, zoom: number): number {
  return Math.max(1, streetWidth[cls] * 2 ** ((zoom - 16) * 0.6))
}

/** Zoom from which a class of street gets its name drawn along it. */
export const streetLabelZoom: Record<StreetClass, number> = { main: 14, street: 15, alley: 17 }

/** Pale land-use tints (OpenStreetMap extracts), kept faint so planning colours drawn over them stay true. */
const landuseTint: Record<string, string> = {
  residential: '#efeae3',
  commercial: '#f4e4e4',
  retail: '#f4e4e4',
  industrial: '#ebe3f0',
  farmland: '#eef3d9',
  aquaculture: '#dcecf5',
}

/** Place names by importance: a city's name is the largest and drawn over the rest. */
const placeLabel: Record<string, { size: number; weight: number; z: number }> = {
  city: { size: 17, weight: 700, z: 48 },
  town: { size: 15, weight: 700, z: 47 },
  archipelago: { size: 14, weight: 700, z: 47 },
  suburb: { size: 13, weight: 600, z: 46 },
  village: { size: 13, weight: 600, z: 46 },
  island: { size: 13, weight: 600, z: 46 },
}

export function createBasemapStyle(o: StyleOptions): StyleFunction {
  const cached = memo()
  return (feature, resolution) => {
    const zoom = zoomForResolution(resolution)
    const name = str(feature, 'name')
    switch (str(feature, 'layer')) {
      case 'water': {
        const base = cached('water', () => new Style({ fill: new Fill({ color: '#9fd3f0' }), stroke: new Stroke({ color: '#5aa9d6', width: 1 }), zIndex: 1 }))
        if (!name || zoom < 15) return base
        return [base, cached(`water:${name}`, () => new Style({ text: label(name, o, { italic: true, color: '#0b5394', weight: 500 }), zIndex: 20 }))]
      }
      case 'landuse': {
        const kind = str(feature, 'kind')
        return cached(`landuse:${kind}`, () => new Style({ fill: new Fill({ color: landuseTint[kind] ?? '#f0efec' }), zIndex: 0 }))
      }
      case 'places': {
        if (!name) return undefined
        const p = placeLabel[str(feature, 'kind')] ?? { size: 12, weight: 600, z: 45 }
        return cached(`place:${p.size}:${name}`, () => new Style({ text: label(name, o, { size: p.size, weight: p.weight, color: '#374151', overflow: true }), zIndex: p.z }))
      }
      case 'green':
        return cached('green', () => new Style({ fill: new Fill({ color: '#c6e8b5' }), zIndex: 2 }))
      case 'blocks':
        return cached('blocks', () => new Style({ fill: new Fill({ color: '#e6e1d8' }), stroke: new Stroke({ color: '#cfc8ba', width: 1 }), zIndex: 3 }))
      case 'ward_boundary':
        return cached(
          'ward',
          () => new Style({ stroke: new Stroke({ color: o.highContrast ? '#581c87' : '#7e3fb0', width: o.highContrast ? 2.5 : 2, lineDash: [8, 5] }), zIndex: 30 }),
        )
      case 'streets': {
        const cls = streetClass(feature)
        const w = Math.round(streetWidthPx(cls, zoom) * 2) / 2
        const casing = cached(`casing:${cls}:${w}`, () => {
          const color = cls === 'main' ? '#b7791f' : o.highContrast ? '#6b7280' : '#a3a3a3'
          return new Style({ stroke: new Stroke({ color, width: w + (o.highContrast ? 2.5 : 2) }), zIndex: 10 + (cls === 'main' ? 2 : cls === 'street' ? 1 : 0) })
        })
        const fill = cached(
          `street:${cls}:${w}`,
          () => new Style({ stroke: new Stroke({ color: cls === 'main' ? '#ffc95c' : '#ffffff', width: w }), zIndex: 13 + (cls === 'main' ? 2 : cls === 'street' ? 1 : 0) }),
        )
        if (!name || zoom < streetLabelZoom[cls]) return [casing, fill]
        const text = cached(`street-label:${name}`, () => new Style({ text: label(name, o, { placement: 'line', size: 12, weight: 600 }), zIndex: 40 }))
        return [casing, fill, text]
      }
      case 'landmarks': {
        if (!name || zoom < 16) return undefined
        return cached(
          `landmark:${name}`,
          () =>
            new Style({
              image: new CircleStyle({ radius: 3.5, fill: new Fill({ color: '#9a3412' }), stroke: new Stroke({ color: '#ffffff', width: 1.5 }) }),
              text: label(name, o, { size: 12, color: '#7c2d12', weight: 600 }),
              zIndex: 41,
            }),
        )
      }
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

export function createPlanningStyle(o: StyleOptions & { reserveFill: CanvasPattern | string }): StyleFunction {
  const cached = memo()
  return (feature, resolution) => {
    const layer = str(feature, 'layer')
    if (layer === 'zones') {
      const color = str(feature, 'color') || '#cccccc'
      const zoom = zoomForResolution(resolution)
      const base = cached(
        `zone:${color}`,
        () => new Style({ fill: new Fill({ color: hexToRgba(color, 0.9) }), stroke: new Stroke({ color: darken(color), width: o.highContrast ? 1.6 : 1 }), zIndex: 1 }),
      )
      const code = str(feature, 'land_use_code')
      // Zone codes label the overview; where parcel numbers are drawn (z16) they would sit on them, so the legend names the codes.
      if (!code || zoom < zoneLabelZooms[0] || zoom >= zoneLabelZooms[1]) return base
      const block = str(feature, 'block_code')
      const text = block ? `${code}\n${block}` : code
      return [base, cached(`zone-label:${text}`, () => new Style({ text: label(text, o, { size: 12, weight: 700, color: '#3f3f46' }), zIndex: 3 }))]
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
 * wide. The transparent fill is there for hit detection: hovering anywhere inside a parcel finds it,
 * not only on its outline.
 */
export function createParcelStyle(o: StyleOptions): StyleFunction {
  const cached = memo()
  const outline = (level: 'faint' | 'full') =>
    new Style({
      stroke: new Stroke({
        color: o.highContrast ? '#000000' : level === 'faint' ? 'rgba(51,65,85,0.55)' : '#334155',
        width: o.highContrast ? 1.4 : level === 'faint' ? 0.6 : 0.9,
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
      s.setText(label(no, o, { size: level === 'faint' ? 10 : 11, weight: 600, color: '#111827' }))
      return s
    })
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
  new Style({ stroke: new Stroke({ color: '#0c4a6e', width: 3.5 }), fill: new Fill({ color: 'rgba(12,74,110,0.14)' }), zIndex: 2 }),
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
export const coverageStyle = new Style({
  stroke: new Stroke({ color: '#c2410c', width: 2.5 }),
  fill: new Fill({ color: 'rgba(194,65,12,0.12)' }),
  text: new Text({
    text: 'Vùng có dữ liệu',
    font: `700 13px ${FONT}`,
    overflow: true,
    offsetY: -18,
    fill: new Fill({ color: '#7c2d12' }),
    stroke: new Stroke({ color: '#ffffff', width: 4 }),
  }),
})

/** The bundled national outline at small zooms: land, and the two archipelagos labelled as Việt Nam. */
export function createNationalStyle(o: StyleOptions): StyleFunction {
  const cached = memo()
  return (feature, resolution) => {
    const kind = str(feature, 'kind')
    const name = str(feature, 'name')
    if (kind === 'mainland' || kind === 'island') {
      return cached(kind, () => new Style({ fill: new Fill({ color: '#f4efe4' }), stroke: new Stroke({ color: '#9a7b4f', width: 1.2 }) }))
    }
    if (kind === 'archipelago') {
      return cached(
        `arch:${name}`,
        () =>
          new Style({
            stroke: new Stroke({ color: '#9a7b4f', width: 1.2, lineDash: [4, 4] }),
            fill: new Fill({ color: 'rgba(244,239,228,0.35)' }),
            text: label(name, o, { size: 12, weight: 700, color: '#7c2d12', overflow: true }),
          }),
      )
    }
    if (kind === 'country-label') {
      return cached(`country:${name}`, () => new Style({ text: label(name, o, { size: 14, weight: 800, color: '#7c2d12', overflow: true }) }))
    }
    if (kind === 'province-label') {
      // Shown once the country is more than a thumbnail; the short "TP." as on Vietnamese maps.
      if (zoomForResolution(resolution) < 6) return undefined
      return cached(`province:${name}`, () => new Style({ text: label(name.replace(/^Thành phố /, 'TP. '), o, { size: 12, weight: 600, color: '#6b4f2a', overflow: true }) }))
    }
    if (kind === 'sea-label') {
      return cached(`sea:${name}`, () => new Style({ text: label(name, o, { size: 14, weight: 600, color: '#0b5394', italic: true, overflow: true }) }))
    }
    return undefined
  }
}
