import { VectorTile } from '@mapbox/vector-tile'
import fc from 'fast-check'
import { readFileSync } from 'node:fs'
import { PbfReader } from 'pbf'
import { describe, expect, it } from 'vitest'
import { tileLayerIds } from '#core/contract/tiles.ts'
import { fixtureTiles } from './fixtures/mvt-layers.ts'
import { encodeTile, openRing, ringArea2, toMvtFeature, type MvtFeature, type MvtLayer } from './mvt.ts'

// Tile coordinates, y down: this square runs clockwise on screen, so its area is positive.
const cw: [number, number][] = [
  [0, 0],
  [10, 0],
  [10, 10],
  [0, 10],
  [0, 0],
]
const ccw = cw.slice().reverse()
const hole: [number, number][] = [
  [3, 3],
  [3, 6],
  [6, 6],
  [6, 3],
  [3, 3],
]

const rings = (f: ReturnType<typeof toMvtFeature>) => (f && f.type !== 1 ? f.geometry : [])

describe('geometry to MVT features', () => {
  it('drops the closing point and repeated points of a ring', () => {
    expect(
      openRing([
        [0, 0],
        [0, 0],
        [5, 0],
        [5, 5],
        [5, 5],
        [0, 0],
      ]),
    ).toEqual([
      [0, 0],
      [5, 0],
      [5, 5],
    ])
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
    const flat: [number, number][] = [
      [0, 0],
      [5, 0],
      [9, 0],
      [0, 0],
    ]
    expect(toMvtFeature({ type: 'Polygon', coordinates: [flat] }, {})).toBeNull()
    expect(
      toMvtFeature(
        {
          type: 'Polygon',
          coordinates: [
            [
              [1, 1],
              [1, 1],
              [2, 2],
              [1, 1],
            ],
          ],
        },
        {},
      ),
    ).toBeNull()
    const f = toMvtFeature(
      {
        type: 'MultiPolygon',
        coordinates: [
          [flat],
          [
            cw,
            [
              [4, 4],
              [5, 4],
              [4, 4],
            ],
          ],
        ],
      },
      {},
    )
    expect(rings(f)).toEqual([cw.slice(0, 4)])
  })

  it('drops lines with fewer than two distinct points and keeps a closed line closed', () => {
    expect(
      toMvtFeature(
        {
          type: 'LineString',
          coordinates: [
            [1, 1],
            [1, 1],
          ],
        },
        {},
      ),
    ).toBeNull()
    const f = toMvtFeature(
      {
        type: 'MultiLineString',
        coordinates: [
          [
            [1, 1],
            [1, 1],
          ],
          cw,
        ],
      },
      { name: 'x' },
    )
    expect(f).toEqual({ type: 2, geometry: [cw], tags: { name: 'x' } })
  })

  it('turns points and multipoints into one point feature', () => {
    expect(toMvtFeature({ type: 'Point', coordinates: [7, 8] }, {}, 5)).toEqual({
      type: 1,
      geometry: [[7, 8]],
      tags: {},
      id: 5,
    })
    expect(
      toMvtFeature(
        {
          type: 'MultiPoint',
          coordinates: [
            [1, 2],
            [3, 4],
          ],
        },
        {},
      )?.geometry,
    ).toEqual([
      [1, 2],
      [3, 4],
    ])
    expect(toMvtFeature({ type: 'MultiPoint', coordinates: [] }, {})).toBeNull()
  })

  it('winds any simple polygon right whatever its input orientation, keeping its area', () => {
    // Star-shaped polygons: sorted angles around a centre give a simple ring.
    const polygon = fc
      .uniqueArray(fc.integer({ min: 0, max: 359 }), { minLength: 3, maxLength: 12 })
      .chain((angles) =>
        fc.tuple(
          fc.constant(angles.sort((a, b) => a - b)),
          fc.array(fc.integer({ min: 50, max: 2000 }), { minLength: angles.length, maxLength: angles.length }),
          fc.boolean(),
        ),
      )
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
    const poly = toMvtFeature(
      { type: 'Polygon', coordinates: [ccw, hole] },
      { code: 'ODT', floors: 5, far: 4.5, ok: true },
      42,
    )!
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

type Decoded = {
  name: string
  version: number
  extent: number
  features: { id: number | undefined; type: number; properties: Record<string, unknown>; geometry: number[][][] }[]
}[]

/** Everything a standard decoder reads from a tile, in plain arrays. */
function decode(bytes: Uint8Array): Decoded {
  const tile = new VectorTile(new PbfReader(bytes))
  return Object.values(tile.layers).map((layer) => ({
    name: layer.name,
    version: layer.version,
    extent: layer.extent,
    features: Array.from({ length: layer.length }, (_, i) => {
      const f = layer.feature(i)
      return {
        id: f.id,
        type: f.type,
        properties: f.properties,
        geometry: f.loadGeometry().map((part) => part.map((p) => [p.x, p.y])),
      }
    }),
  }))
}

/** What the decoder should read back for a feature: a point per part for points, rings closed again. */
function expectedGeometry(f: MvtFeature): number[][][] {
  if (f.type === 1) return f.geometry.map((p) => [p])
  if (f.type === 2) return f.geometry
  return f.geometry.map((ring) => {
    const [first, last] = [ring[0]!, ring[ring.length - 1]!]
    const open = ring.length > 1 && first[0] === last[0] && first[1] === last[1] ? ring.slice(0, -1) : ring
    return [...open, first]
  })
}

describe('encoding a tile as @maplibre/vt-pbf did', () => {
  // The fixture holds the bytes vt-pbf 4.3.3 wrote for the same features before this encoder replaced it.
  const before = JSON.parse(
    readFileSync(new URL('./fixtures/mvt-vt-pbf-4.3.3.json', import.meta.url), 'utf8'),
  ) as Record<string, string>

  it.each(tileLayerIds)('decodes the %s fixture tile to the same layers, ids, properties and geometry', (set) => {
    const ours = decode(encodeTile(fixtureTiles[set])!)
    const theirs = decode(Buffer.from(before[set]!, 'base64'))
    expect(ours).toEqual(theirs)
    expect(ours.map((l) => l.name)).toEqual(fixtureTiles[set].filter((l) => l.features.length > 0).map((l) => l.name))
    expect(ours.every((l) => l.version === 2 && l.extent === 4096)).toBe(true)
  })

  it.each(tileLayerIds)('writes the %s fixture tile byte for byte as vt-pbf did', (set) => {
    expect(Buffer.from(encodeTile(fixtureTiles[set])!).toString('base64')).toBe(before[set])
  })

  it('keeps every value kind and a value shared by features and types apart in the dictionary', () => {
    const [parcels] = decode(encodeTile(fixtureTiles.parcels)!)
    expect(parcels!.features.map((f) => f.properties)).toEqual(fixtureTiles.parcels[0]!.features.map((f) => f.tags))
    expect(parcels!.features.map((f) => f.id)).toEqual([268435455, 268435456, 9007199254740991, 127, 128])
  })
})

describe('encoding strings', () => {
  it('writes characters past U+1FFFF as UTF-8, as Chữ Nôm in a name needs', () => {
    const name = 'Chùa 𡨸 Nôm 𠀀 😀'
    const point = toMvtFeature({ type: 'Point', coordinates: [1, 2] }, { [name]: name }, 1)!
    const bytes = encodeTile([{ name, features: [point] }])!
    expect(Buffer.from(bytes).includes(Buffer.from(name))).toBe(true)
    const [layer] = decode(bytes)
    expect(layer!.name).toBe(name)
    expect(layer!.features[0]!.properties).toEqual({ [name]: name })
  })
})

describe('encoding random features', () => {
  const coordinate = fc.integer({ min: -64, max: 4160 })
  const point = fc.tuple(coordinate, coordinate)
  const value = fc.oneof(
    fc.string({ unit: 'grapheme' }),
    fc.string(),
    fc.boolean(),
    fc.maxSafeInteger(),
    // MVT integers have no -0; a double that is an integer goes as one.
    fc.double().map((d) => (Object.is(d, -0) ? 0 : d)),
  )
  // The decoder builds plain objects: a key named __proto__ would set their prototype instead.
  const name = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }).filter((k) => k !== '__proto__')
  const tags = fc.dictionary(name, value, { maxKeys: 6 })
  const id = fc.option(fc.maxSafeNat(), { nil: undefined })
  const withId = <T extends object>(f: T, i: number | undefined) => (i === undefined ? f : { ...f, id: i })
  const feature: fc.Arbitrary<MvtFeature> = fc.oneof(
    fc
      .tuple(fc.array(point, { minLength: 1, maxLength: 5 }), tags, id)
      .map(([geometry, t, i]) => withId({ type: 1 as const, geometry, tags: t }, i)),
    fc
      .tuple(fc.array(fc.array(point, { minLength: 2, maxLength: 8 }), { minLength: 1, maxLength: 3 }), tags, id)
      .map(([geometry, t, i]) => withId({ type: 2 as const, geometry, tags: t }, i)),
    fc
      .tuple(fc.array(fc.array(point, { minLength: 3, maxLength: 80 }), { minLength: 1, maxLength: 3 }), tags, id)
      .map(([geometry, t, i]) => withId({ type: 3 as const, geometry, tags: t }, i)),
  )
  const layers: fc.Arbitrary<MvtLayer[]> = fc
    .uniqueArray(name, { minLength: 1, maxLength: 4 })
    .chain((names) =>
      fc.tuple(
        ...names.map((n) => fc.array(feature, { maxLength: 6 }).map((features): MvtLayer => ({ name: n, features }))),
      ),
    )

  it('reads back every layer, id, property and point that went in', () => {
    fc.assert(
      fc.property(layers, (input) => {
        const bytes = encodeTile(input)
        const drawn = input.filter((l) => l.features.length > 0)
        if (drawn.length === 0) {
          expect(bytes).toBeNull()
          return
        }
        expect(decode(bytes!)).toEqual(
          drawn.map((l) => ({
            name: l.name,
            version: 2,
            extent: 4096,
            features: l.features.map((f) => ({
              id: f.id,
              type: f.type,
              properties: f.tags,
              geometry: expectedGeometry(f),
            })),
          })),
        )
      }),
    )
  })
})
