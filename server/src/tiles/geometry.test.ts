import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { tileCorner } from '#core/offline/tile-grid.ts'
import {
  clipLines,
  clipRing,
  interiorPoint,
  readGeometry,
  simplify,
  SIMPLIFY_TOLERANCE,
  sourceFeature,
  tileFeature,
  worldFeature,
  worldX,
  worldY,
} from './geometry.ts'
import { BUFFER, EXTENT, ringArea2 } from './mvt.ts'

type Pt = [number, number]

/** WKB of a (multi)geometry, as PostGIS writes it: EWKB flags for an SRID and a Z, either byte order. */
function wkb(
  type: number,
  body: (w: (v: number, kind: 'u32' | 'f64') => void) => void,
  opts: { srid?: number; z?: boolean; bigEndian?: boolean } = {},
): string {
  const parts: Buffer[] = []
  const le = !opts.bigEndian
  const put = (v: number, kind: 'u32' | 'f64') => {
    const b = Buffer.alloc(kind === 'u32' ? 4 : 8)
    if (kind === 'u32') b[le ? 'writeUInt32LE' : 'writeUInt32BE'](v)
    else b[le ? 'writeDoubleLE' : 'writeDoubleBE'](v)
    parts.push(b)
  }
  parts.push(Buffer.from([le ? 1 : 0]))
  put((type | (opts.srid !== undefined ? 0x20000000 : 0) | (opts.z ? 0x80000000 : 0)) >>> 0, 'u32')
  if (opts.srid !== undefined) put(opts.srid, 'u32')
  body(put)
  return Buffer.concat(parts).toString('hex')
}

const points =
  (pts: Pt[], z = false) =>
  (w: (v: number, kind: 'u32' | 'f64') => void) => {
    w(pts.length, 'u32')
    for (const [x, y] of pts) {
      w(x, 'f64')
      w(y, 'f64')
      if (z) w(99, 'f64')
    }
  }

const square: Pt[] = [
  [106, 10],
  [107, 10],
  [107, 11],
  [106, 11],
  [106, 10],
]

describe('reading rows', () => {
  it('reads polygons, lines and points from EWKB with an SRID or a Z, in either byte order', () => {
    const polygon = wkb(3, (w) => (w(1, 'u32'), points(square)(w)), { srid: 4326 })
    expect(readGeometry(polygon)).toEqual({ type: 3, polygons: [[square.flat()]] })
    const line = wkb(2, points(square.slice(0, 2), true), { z: true, bigEndian: true })
    expect(readGeometry(line)).toEqual({ type: 2, lines: [[106, 10, 107, 10]] })
    const point = wkb(1, (w) => (w(106.5, 'f64'), w(10.5, 'f64')))
    expect(readGeometry(point)).toEqual({ type: 1, points: [106.5, 10.5] })
  })

  it('keeps the parts of the highest dimension of a collection, as ST_CollectionExtract did', () => {
    const pointPart = wkb(1, (w) => (w(1, 'f64'), w(2, 'f64')))
    const polygonPart = wkb(3, (w) => (w(1, 'u32'), points(square)(w)))
    const collection = wkb(7, (w) => w(2, 'u32')) + pointPart + polygonPart
    expect(readGeometry(collection)).toEqual({ type: 3, polygons: [[square.flat()]] })
    const multiLine =
      wkb(5, (w) => w(2, 'u32')) + wkb(2, points(square.slice(0, 2))) + wkb(2, points(square.slice(2, 4)))
    expect(readGeometry(multiLine)).toEqual({ type: 2, lines: [square.slice(0, 2).flat(), square.slice(2, 4).flat()] })
  })
})

describe('simplifying', () => {
  it('keeps the ends and every point farther than the tolerance from the kept line', () => {
    expect(simplify([0, 0, 5, 1, 10, 0, 20, 30], 8)).toEqual([0, 0, 10, 0, 20, 30])
    expect(simplify([0, 0, 5, 9, 10, 0], 8)).toEqual([0, 0, 5, 9, 10, 0])
  })

  it('drops a polygon smaller than a pixel at the zoom, and keeps it where it is larger', () => {
    const tiny: Pt[] = [
      [106.0, 10.0],
      [106.00001, 10.0],
      [106.00001, 10.00001],
      [106.0, 10.0],
    ]
    const f = sourceFeature(1, {}, { type: 3, polygons: [[tiny.flat()]] }, false)
    expect(worldFeature(f, 14)).toBeNull()
    expect(worldFeature(f, 22)?.geometry.type).toBe(3)
    expect(SIMPLIFY_TOLERANCE).toBe(EXTENT / 512)
  })
})

describe('clipping', () => {
  it('cuts a ring to the box, the part outside coming back along its border', () => {
    const ring = [-50, -50, 50, -50, 50, 50, -50, 50]
    const out = clipRing(ring, 0, 0, 100, 100)!
    const pts: Pt[] = []
    for (let i = 0; i < out.length; i += 2) pts.push([out[i]!, out[i + 1]!])
    expect(pts.every(([x, y]) => x >= 0 && x <= 100 && y >= 0 && y <= 100)).toBe(true)
    expect(Math.abs(ringArea2(pts))).toBe(2 * 50 * 50)
    expect(clipRing([200, 200, 300, 200, 300, 300], 0, 0, 100, 100)).toBeNull()
  })

  it('splits a line that leaves the box and comes back into two pieces', () => {
    expect(clipLines([[10, 50, 150, 50, 150, 60, 10, 60]], 0, 0, 100, 100)).toEqual([
      [10, 50, 100, 50],
      [100, 60, 10, 60],
    ])
    expect(clipLines([[200, 0, 300, 0]], 0, 0, 100, 100)).toEqual([])
  })

  it('keeps every coordinate of a feature within the tile and its buffer, whatever its shape', () => {
    // Rings in tile units around z16 tile (52192, 30790), reaching up to most of a tile beyond it on every side.
    const ring = fc.array(fc.tuple(fc.integer({ min: -3000, max: 7000 }), fc.integer({ min: -3000, max: 7000 })), {
      minLength: 3,
      maxLength: 12,
    })
    fc.assert(
      fc.property(ring, (pts) => {
        const degrees = [...pts, pts[0]!].flatMap(([x, y]) => {
          const c = tileCorner(16, 52192 + x / EXTENT, 30790 + y / EXTENT)
          return [c.lng, c.lat]
        })
        const f = worldFeature(sourceFeature(1, {}, { type: 3, polygons: [[degrees]] }, false), 16)
        const piece = f && tileFeature(f, 52192, 30790)
        const coords = piece && piece.type !== 1 ? piece.geometry.flat() : []
        expect(
          coords.every(([x, y]) => x >= -BUFFER && x <= EXTENT + BUFFER && y >= -BUFFER && y <= EXTENT + BUFFER),
        ).toBe(true)
      }),
    )
  })
})

describe('labels and points', () => {
  it('finds the interior point of a square with a hole in its widest stretch, as ST_PointOnSurface does', () => {
    const shell = [0, 0, 10, 0, 10, 10, 0, 10, 0, 0]
    const hole = [2, 2, 2, 8, 8, 8, 8, 2, 2, 2]
    // The scan line is nudged off the vertices: half way between y 2 (below the middle) and 8 (above it).
    expect(interiorPoint([[shell, hole]])).toEqual([1, 5])
    expect(interiorPoint([[shell]])).toEqual([5, 5])
    expect(interiorPoint([[[0, 0, 10, 0, 5, 0, 0, 0]]])).toBeNull()
  })

  it('labels the piece in the tile holding the interior point and no other', () => {
    // A parcel across the edge between tiles x = 52192 and 52193 at z16, mostly in the first.
    const west = ((52193 - 0.3) / 2 ** 16) * 360 - 180
    const east = ((52193 + 0.1) / 2 ** 16) * 360 - 180
    const f = sourceFeature(
      7,
      { parcel_no: 7 },
      { type: 3, polygons: [[[west, 10.79, east, 10.79, east, 10.795, west, 10.795, west, 10.79]]] },
      true,
    )
    const w = worldFeature(f, 16)!
    const y = Math.floor(worldY(10.7925, 16) / EXTENT)
    expect(tileFeature(w, 52192, y)?.tags).toEqual({ parcel_no: 7, label: true })
    expect(tileFeature(w, 52193, y)?.tags).toEqual({ parcel_no: 7, label: false })
  })

  it('puts a point on the edge between two tiles in one of them only', () => {
    const lng = (52193 / 2 ** 16) * 360 - 180
    expect(worldX(lng, 16)).toBe(52193 * EXTENT)
    const f = worldFeature(sourceFeature(1, {}, { type: 1, points: [lng, 10.79] }, false), 16)!
    const y = Math.floor(worldY(10.79, 16) / EXTENT)
    expect(tileFeature(f, 52192, y)).toBeNull()
    expect(tileFeature(f, 52193, y)?.geometry).toEqual([[0, expect.any(Number)]])
  })
})
