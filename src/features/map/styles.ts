import type { FeatureLike } from 'ol/Feature'
import { Fill, Stroke, Style, Text } from 'ol/style'

/** Simple styles for the three vector tile sets; the Map issue refines them. */
const cache = new Map<string, Style>()
function cached(key: string, make: () => Style): Style {
  let s = cache.get(key)
  if (!s) {
    s = make()
    cache.set(key, s)
  }
  return s
}

export function basemapStyle(feature: FeatureLike, resolution: number): Style | undefined {
  const layer = String(feature.get('layer') ?? '')
  switch (layer) {
    case 'water':
      return cached('water', () => new Style({ fill: new Fill({ color: '#a5d8f3' }), stroke: new Stroke({ color: '#7cc3e8', width: 1 }) }))
    case 'green':
      return cached('green', () => new Style({ fill: new Fill({ color: '#cdeccb' }) }))
    case 'blocks':
      return cached('blocks', () => new Style({ fill: new Fill({ color: 'rgba(160,160,160,0.35)' }) }))
    case 'ward_boundary':
      return cached('ward', () => new Style({ stroke: new Stroke({ color: '#9b59b6', width: 1.5, lineDash: [6, 4] }) }))
    case 'streets': {
      const cls = String(feature.get('class') ?? 'street')
      const width = cls === 'main' ? 6 : cls === 'street' ? 4 : 2
      const name = resolution < 4 ? String(feature.get('name') ?? '') : ''
      return new Style({
        stroke: new Stroke({ color: cls === 'main' ? '#f6c26b' : '#ffffff', width }),
        text: name ? new Text({ text: name, placement: 'line', font: '600 12px system-ui, sans-serif', fill: new Fill({ color: '#333' }), stroke: new Stroke({ color: '#fff', width: 3 }) }) : undefined,
      })
    }
    case 'landmarks': {
      const name = String(feature.get('name') ?? '')
      return new Style({ text: new Text({ text: name, font: '12px system-ui, sans-serif', fill: new Fill({ color: '#444' }), stroke: new Stroke({ color: '#fff', width: 3 }) }) })
    }
    default:
      return undefined
  }
}

function hexToRgba(hex: string, alpha: number): string {
  const m = /^#?([0-9a-f]{6})$/i.exec(hex)
  if (!m) return `rgba(204,204,204,${alpha})`
  const n = parseInt(m[1]!, 16)
  return `rgba(${(n >> 16) & 255},${(n >> 8) & 255},${n & 255},${alpha})`
}

export function planningStyle(feature: FeatureLike): Style | undefined {
  const layer = String(feature.get('layer') ?? '')
  if (layer === 'zones') {
    const color = String(feature.get('color') ?? '#cccccc')
    return cached(`zone:${color}`, () => new Style({ fill: new Fill({ color: hexToRgba(color, 0.45) }), stroke: new Stroke({ color: hexToRgba(color, 0.9), width: 1 }) }))
  }
  if (layer === 'road_reserves') {
    return cached('reserve', () => new Style({ fill: new Fill({ color: 'rgba(220,38,38,0.25)' }), stroke: new Stroke({ color: '#dc2626', width: 1.5, lineDash: [4, 3] }) }))
  }
  return undefined
}

export function parcelStyle(feature: FeatureLike, resolution: number): Style {
  const label = resolution < 0.6 ? String(feature.get('parcel_no') ?? '') : ''
  if (!label) return cached('parcel', () => new Style({ stroke: new Stroke({ color: '#334155', width: 0.8 }) }))
  return new Style({
    stroke: new Stroke({ color: '#334155', width: 0.8 }),
    text: new Text({ text: label, font: '11px system-ui, sans-serif', fill: new Fill({ color: '#111' }), stroke: new Stroke({ color: '#fff', width: 2.5 }), overflow: false }),
  })
}
