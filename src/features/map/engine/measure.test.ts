import { describe, expect, it, vi } from 'vitest'
import LineString from 'ol/geom/LineString'
import Polygon from 'ol/geom/Polygon'
import { fromLonLat } from 'ol/proj'
import Feature from 'ol/Feature'
import OlMap from 'ol/Map'
import type VectorLayer from 'ol/layer/Vector'
import { createMeasure, measureGeometry, type Measurement } from './measure.ts'

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
