import { describe, expect, it, vi } from 'vitest'
import LineString from 'ol/geom/LineString'
import Polygon from 'ol/geom/Polygon'
import { fromLonLat } from 'ol/proj'
import Feature from 'ol/Feature'
import OlMap from 'ol/Map'
import type VectorLayer from 'ol/layer/Vector'
import RenderFeature from 'ol/render/Feature'
import { createMeasure, geometryOf, measureGeometry, type Measurement } from './measure.ts'
import { parcelOutlines, snapTarget } from './measure-snap.ts'

/** A square of `side` metres at latitude 10.8°, built in degrees so its true size is known. */
function square(side: number) {
  const lat0 = 10.8
  const lng0 = 106.7
  const dLat = side / 110_600
  const dLng = side / (111_320 * Math.cos((lat0 * Math.PI) / 180))
  const ring = [
    [lng0, lat0],
    [lng0 + dLng, lat0],
    [lng0 + dLng, lat0 + dLat],
    [lng0, lat0 + dLat],
    [lng0, lat0],
  ].map((c) => fromLonLat(c))
  return new Polygon([ring])
}

describe('measuring', () => {
  it('gives a 100 m square 1 ha on the ellipsoid, not its inflated Mercator area', () => {
    const m = measureGeometry(square(100))!
    expect(m.kind).toBe('area')
    expect(m.areaM2).toBeGreaterThan(9_980)
    expect(m.areaM2).toBeLessThan(10_020)
    expect(m.lengthM).toBeGreaterThan(399.6)
    expect(m.lengthM).toBeLessThan(400.4)
    expect(m.text).toMatch(/^[\d.]+ m² \(\d,\d{1,4} ha\) · chu vi [\d.,]+ m$/)
  })

  it('gives each side of a polygon its own length, the closing side last, adding up to the perimeter', () => {
    const m = measureGeometry(square(100))!
    expect(m.sides).toHaveLength(4)
    for (const side of m.sides) expect(Math.abs(side - 100)).toBeLessThan(0.3)
    expect(m.sides.reduce((a, b) => a + b, 0)).toBeCloseTo(m.lengthM, 6)
  })

  it('gives each segment of a line its length', () => {
    const line = new LineString([fromLonLat([106.7, 10.8]), fromLonLat([106.7, 10.801]), fromLonLat([106.7, 10.8015])])
    const m = measureGeometry(line)!
    expect(m.sides.map((x) => Math.round(x * 10) / 10)).toEqual([110.6, 55.3])
  })

  it('gives the geodesic length of a line in metres', () => {
    const line = new LineString([fromLonLat([106.7, 10.8]), fromLonLat([106.7, 10.801])])
    const m = measureGeometry(line)!
    expect(m.kind).toBe('length')
    // 0.001° of latitude at 10.8° N is 110,6 m on the ellipsoid (a sphere would say 111,2 m).
    expect(m.lengthM).toBeGreaterThan(110.55)
    expect(m.lengthM).toBeLessThan(110.65)
    expect(m.text).toBe('110,6 m')
  })

  it('keeps what was measured on the map after the panel closes, until it is cleared', () => {
    // OpenLayers watches its element's size; jsdom has no ResizeObserver and nothing here is drawn.
    vi.stubGlobal(
      'ResizeObserver',
      class {
        observe() {}
        unobserve() {}
        disconnect() {}
      },
    )
    const map = new OlMap({})
    const layer = () =>
      map
        .getLayers()
        .getArray()
        .find((l) => l.get('name') === 'measure') as VectorLayer | undefined
    const first = createMeasure(map, () => {})
    layer()!
      .getSource()!
      .addFeature(new Feature(square(100)))
    first.dispose()
    expect(layer()).toBeDefined()

    let seen: Measurement[] = []
    const again = createMeasure(map, (list) => (seen = list))
    expect(seen).toHaveLength(1)
    again.clear()
    again.dispose()
    expect(layer()).toBeUndefined()
    vi.unstubAllGlobals()
  })
})

describe('keeping a measurement', () => {
  it('gives a polygon’s points as lon/lat without the closing one, and draws them back as the same shape', () => {
    const m = measureGeometry(square(100))!
    expect(m.points).toHaveLength(4)
    expect(m.points[0]![0]).toBeCloseTo(106.7, 9)
    expect(m.points[0]![1]).toBeCloseTo(10.8, 9)
    const again = measureGeometry(geometryOf('area', m.points))!
    expect(again.areaM2).toBeCloseTo(m.areaM2, 6)
    const line = measureGeometry(
      geometryOf('length', [
        [106.7, 10.8],
        [106.7, 10.801],
      ]),
    )!
    expect(line.kind).toBe('length')
    expect(line.points).toEqual(
      [
        [106.7, 10.8],
        [106.7, 10.801],
      ].map(([a, b]) => [expect.closeTo(a!, 9), expect.closeTo(b!, 9)]),
    )
  })
})

describe('snapping to parcels', () => {
  it('calls a snapped point a corner when it is one end of the parcel side, else a point on that side', () => {
    const side = [
      [0, 0],
      [10, 0],
    ]
    expect(snapTarget([10, 0], side)).toBe('corner')
    expect(snapTarget([4, 0], side)).toBe('edge')
    expect(snapTarget([4, 0], null)).toBe('corner')
  })

  it('snaps to the parcel outlines the tiles drew, not to their number labels', () => {
    const ring = [0, 0, 10, 0, 10, 10, 0, 10, 0, 0]
    const outline = new RenderFeature('Polygon', ring, [ring.length], 2, { id: 7 }, 7)
    const label = new RenderFeature('Point', [5, 5], [2], 2, { id: 7, label: '12' }, 7)
    const [only, ...more] = parcelOutlines([outline, label])
    expect(more).toEqual([])
    expect(only!.getGeometry()!.getType()).toBe('Polygon')
    expect((only!.getGeometry() as Polygon).getCoordinates()[0]).toEqual([
      [0, 0],
      [10, 0],
      [10, 10],
      [0, 10],
      [0, 0],
    ])
  })
})
