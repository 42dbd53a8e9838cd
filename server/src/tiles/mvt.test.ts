import { VectorTile } from '@mapbox/vector-tile'
import fc from 'fast-check'
import { PbfReader } from 'pbf'
import { describe, expect, it } from 'vitest'
import { encodeTile, openRing, ringArea2, toMvtFeature } from './mvt.ts'

// Tile coordinates, y down: this square runs clockwise on screen, so its area is positive.
const cw: [number, number][] = [[0, 0], [10, 0], [10, 10], [0, 10], [0, 0]]
const ccw = cw.slice().reverse()
const hole: [number, number][] = [[3, 3], [3, 6], [6, 6], [6, 3], [3, 3]]

const rings = (f: ReturnType<typeof toMvtFeature>) => (f && f.type !== 1 ? f.geometry : [])

describe('geometry to MVT features', () => {
  it('drops the closing point and repeated points of a ring', () => {
    expect(openRing([[0, 0], [0, 0], [5, 0], [5, 5], [5, 5], [0, 0]])).toEqual([[0, 0], [5, 0], [5, 5]])
  })

  it('winds a counter-clockwise exterior clockwise and a clockwise hole counter-clockwise', () => {
    const f = toMvtFeature({ type: 'Polygon', coordinates: [ccw, hole.slice().reverse()] }, {})
    const [outer, inner] = rings(f)
    expect(ringArea2(outer!)).toBe(200)
    expect(ringArea2(inner!)).toBe(-18)
    expect(outer).toHaveLength(4)
    expect(inner).toHaveLength(4)
  })

  it('keeps rings that are already wound as MVT wants', () => {
    const f = toMvtFeature({ type: 'Polygon', coordinates: [cw, hole] }, {})
    expect(rings(f)).toEqual([cw.slice(0, 4), hole.slice(0, 4)])
  })

  it('gives every polygon of a multipolygon an exterior followed by its holes', () => {
    const far = cw.map(([x, y]) => [x + 100, y] as [number, number]).reverse()
    const f = toMvtFeature({ type: 'MultiPolygon', coordinates: [[ccw, hole], [far]] }, {})
    expect(rings(f).map((r) => Math.sign(ringArea2(r)))).toEqual([1, -1, 1])
  })

  it('drops polygons and holes that quantising collapsed, keeping what is left', () => {
    const flat: [number, number][] = [[0, 0], [5, 0], [9, 0], [0, 0]]
    expect(toMvtFeature({ type: 'Polygon', coordinates: [flat] }, {})).toBeNull()
    expect(toMvtFeature({ type: 'Polygon', coordinates: [[[1, 1], [1, 1], [2, 2], [1, 1]]] }, {})).toBeNull()
    const f = toMvtFeature({ type: 'MultiPolygon', coordinates: [[flat], [cw, [[4, 4], [5, 4], [4, 4]]]] }, {})
    expect(rings(f)).toEqual([cw.slice(0, 4)])
  })

  it('drops lines with fewer than two distinct points and keeps a closed line closed', () => {
    expect(toMvtFeature({ type: 'LineString', coordinates: [[1, 1], [1, 1]] }, {})).toBeNull()
    const f = toMvtFeature({ type: 'MultiLineString', coordinates: [[[1, 1], [1, 1]], cw] }, { name: 'x' })
    expect(f).toEqual({ type: 2, geometry: [cw], tags: { name: 'x' } })
  })

  it('turns points and multipoints into one point feature', () => {
    expect(toMvtFeature({ type: 'Point', coordinates: [7, 8] }, {}, 5)).toEqual({ type: 1, geometry: [[7, 8]], tags: {}, id: 5 })
    expect(toMvtFeature({ type: 'MultiPoint', coordinates: [[1, 2], [3, 4]] }, {})?.geometry).toEqual([[1, 2], [3, 4]])
    expect(toMvtFeature({ type: 'MultiPoint', coordinates: [] }, {})).toBeNull()
  })

  it('winds any simple polygon right whatever its input orientation, keeping its area', () => {
    // Star-shaped polygons: sorted angles around a centre give a simple ring.
    const polygon = fc
      .uniqueArray(fc.integer({ min: 0, max: 359 }), { minLength: 3, maxLength: 12 })
      .chain((angles) => fc.tuple(fc.constant(angles.sort((a, b) => a - b)), fc.array(fc.integer({ min: 50, max: 2000 }), { minLength: angles.length, maxLength: angles.length }), fc.boolean()))
    fc.assert(
      fc.property(polygon, ([angles, radii, reverse]) => {
        const ring = angles.map((a, i): [number, number] => [
          2048 + Math.round(radii[i]! * Math.cos((a * Math.PI) / 180)),
          2048 + Math.round(radii[i]! * Math.sin((a * Math.PI) / 180)),
        ])
        const open = openRing(ring)
        fc.pre(open.length >= 3 && ringArea2(open) !== 0)
        const input = reverse ? ring.slice().reverse() : ring
        const [outer] = rings(toMvtFeature({ type: 'Polygon', coordinates: [[...input, input[0]!]] }, {}))
        expect(ringArea2(outer!)).toBe(Math.abs(ringArea2(open)))
      }),
    )
  })
})

describe('encoding a tile', () => {
  it('answers null when no layer has a feature', () => {
    expect(encodeTile([])).toBeNull()
    expect(encodeTile([{ name: 'a', features: [] }])).toBeNull()
  })

  it('encodes layers with ids, properties and geometry that a standard decoder reads back', () => {
    const poly = toMvtFeature({ type: 'Polygon', coordinates: [ccw, hole] }, { code: 'ODT', floors: 5, far: 4.5, ok: true }, 42)!
    const bytes = encodeTile([
      { name: 'zones', features: [poly] },
      { name: 'empty', features: [] },
    ])!
    const tile = new VectorTile(new PbfReader(bytes))
    expect(Object.keys(tile.layers)).toEqual(['zones'])
    const layer = tile.layers.zones!
    expect(layer.extent).toBe(4096)
    const f = layer.feature(0)
    expect(f.id).toBe(42)
    expect(f.properties).toEqual({ code: 'ODT', floors: 5, far: 4.5, ok: true })
    // Four vertices per ring went over the wire; the decoder closes each ring itself.
    expect(f.loadGeometry().map((r) => r.length)).toEqual([5, 5])
    const gj = f.toGeoJSON(0, 0, 0)
    expect(gj.geometry.type).toBe('Polygon')
  })
})
