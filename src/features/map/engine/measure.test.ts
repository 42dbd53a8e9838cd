import { describe, expect, it } from 'vitest'
import LineString from 'ol/geom/LineString'
import Polygon from 'ol/geom/Polygon'
import { fromLonLat } from 'ol/proj'
import { measureGeometry } from './measure.ts'

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

  it('gives the geodesic length of a line in metres', () => {
    const line = new LineString([fromLonLat([106.7, 10.8]), fromLonLat([106.7, 10.801])])
    const m = measureGeometry(line)!
    expect(m.kind).toBe('length')
    // 0.001° of latitude at 10.8° N is 110,6 m on the ellipsoid (a sphere would say 111,2 m).
    expect(m.lengthM).toBeGreaterThan(110.55)
    expect(m.lengthM).toBeLessThan(110.65)
    expect(m.text).toBe('110,6 m')
  })
})
