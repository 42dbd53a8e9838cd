import { crc32 as zlibCrc32, gzipSync } from 'node:zlib'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { planArea, planCount, planTiles, tileRange, type Bbox, type LayerTile } from './tile-grid.ts'
import {
  crc32,
  packEntryHead,
  packHeader,
  packPath,
  planPacks,
  planRects,
  readPack,
  type PackEntry,
} from './tile-pack.ts'

const ward: Bbox = [106.69, 10.79, 106.71, 10.8]
const extent = { minzoom: 12, maxzoom: 18, bounds: [106.6, 10.7, 106.8, 10.9] as Bbox }
const plan = planArea(ward, 12, 18, { basemap: extent, planning: extent, parcels: { ...extent, minzoom: 16 } })

function streamOf(...chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(c) {
      for (const chunk of chunks) c.enqueue(chunk)
      c.close()
    },
  })
}

/** A pack as the server writes it, cut into 7-byte chunks so every read spans chunk boundaries. */
function packBytes(version: number, tiles: (LayerTile & { body: Uint8Array | null })[]): Uint8Array {
  const parts: Uint8Array[] = [packHeader(version, tiles.length)]
  for (const t of tiles) {
    const gz = t.body ? new Uint8Array(gzipSync(t.body)) : null
    parts.push(packEntryHead(t, gz))
    if (gz) parts.push(gz)
  }
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const p of parts) {
    all.set(p, at)
    at += p.length
  }
  return all
}
const chunked = (b: Uint8Array) =>
  streamOf(...Array.from({ length: Math.ceil(b.length / 7) }, (_, i) => b.subarray(i * 7, i * 7 + 7)))

async function readAll(stream: ReadableStream<Uint8Array>) {
  const out: { version?: number; entries: PackEntry[] } = { entries: [] }
  for await (const item of readPack(stream)) {
    if ('entries' in item) out.version = item.version
    else out.entries.push(item)
  }
  return out
}

describe('tile packs', () => {
  it('computes the CRC-32 gzip uses, the same as node:zlib on any bytes', () => {
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926)
    expect(crc32(new Uint8Array(0))).toBe(0)
    fc.assert(fc.property(fc.uint8Array({ maxLength: 5000 }), (bytes) => crc32(bytes) === zlibCrc32(bytes)))
  })

  it('cuts a plan into rectangles of one part and at most 64 tiles that hold every tile once, in the plan’s order', () => {
    const rects = [...planRects(plan, 0, 64)]
    expect(rects.flatMap((r) => r.tiles)).toEqual([...planTiles(plan)])
    for (const { layer, range: r, tiles } of rects) {
      expect(tiles.length).toBeLessThanOrEqual(64)
      expect(tiles.length).toBe((r.maxX - r.minX + 1) * (r.maxY - r.minY + 1))
      expect(
        tiles.every(
          (t) => t.layer === layer && t.z === r.z && t.x >= r.minX && t.x <= r.maxX && t.y >= r.minY && t.y <= r.maxY,
        ),
      ).toBe(true)
    }
    // 135 tiles at z18 (15 × 9) per layer: four rows of 15 make a rectangle, so three per layer.
    expect(rects.filter((r) => r.range.z === 18).map((r) => r.tiles.length)).toEqual([
      60, 60, 15, 60, 60, 15, 60, 60, 15,
    ])
  })

  it('resumes mid-row with the rest of that row, then whole rows again', () => {
    const from = planCount(plan) - 135 + 20
    const packs = [...planPacks(plan, { from, maxTiles: 64 })]
    expect(packs[0]!.tiles.map((t) => t.index)).toEqual(Array.from({ length: 10 }, (_, i) => from + i))
    expect(packs.flatMap((p) => p.tiles)).toEqual([...planTiles(plan, from)])
    expect([...planRects(plan, from, 64)].flatMap((r) => r.tiles)).toEqual([...planTiles(plan, from)])
  })

  it('splits a row wider than a pack into pieces', () => {
    const wide = [
      { layer: 'parcels' as const, range: { z: 18, minX: 0, maxX: 99, minY: 0, maxY: 1 }, count: 200, box: ward },
    ]
    expect([...planRects(wide, 0, 64)].map((r) => [r.range.minX, r.range.maxX, r.range.minY])).toEqual([
      [0, 63, 0],
      [64, 99, 0],
      [0, 63, 1],
      [64, 99, 1],
    ])
  })

  it('asks for the low zooms of every layer in one pack and a zoom’s layers together while they fit', () => {
    const packs = [...planPacks(plan)]
    expect(packs.flatMap((p) => p.tiles)).toEqual([...planTiles(plan)])
    expect(packs.every((p) => p.tiles.length <= 128)).toBe(true)
    // z12–15 are a handful of tiles per layer; parcels join from z16, so a new pack starts there.
    expect(packs[0]).toMatchObject({ zooms: [12, 15], layers: ['basemap', 'planning'], box: ward })
    expect(packs[1]).toMatchObject({ zooms: [16, 16], layers: ['basemap', 'planning', 'parcels'] })
    expect(packs.length).toBeLessThan(planCount(plan) / 50)
  })

  it('asks for each pack by a query whose tiles, as the server lists them, are exactly the pack’s', () => {
    for (const maxTiles of [7, 64, 128, 256]) {
      for (const p of planPacks(plan, { maxTiles })) {
        const q = new URL(packPath(p), 'https://x.test').searchParams
        const bbox = q.get('bbox')!.split(',').map(Number) as Bbox
        const [z1, z2 = z1] = q.get('zooms')!.split('-').map(Number) as [number, number?]
        // The server's order: zoom, then the layers as listed, then row by row.
        const listed: LayerTile[] = []
        for (let z = z1; z <= z2; z++) {
          const r = tileRange(bbox, z)
          for (const layer of q.get('layers')!.split(',') as LayerTile['layer'][]) {
            for (let y = r.minY; y <= r.maxY; y++)
              for (let x = r.minX; x <= r.maxX; x++) listed.push({ layer, z, x, y })
          }
        }
        expect(listed, packPath(p)).toEqual(p.tiles.map(({ layer, z, x, y }) => ({ layer, z, x, y })))
      }
    }
  })

  it('never packs a layer no server packs, nor layers of two servers together', () => {
    const mixed = planArea(ward, 12, 16, { basemap: extent, planning: extent, 'raster/7': extent })
    const packedBy = (layer: string) =>
      layer === 'raster/7' ? null : layer === 'basemap' ? 'https://tiles.example.org' : 'https://app.test'
    const packs = [...planPacks(mixed, { packedBy })]
    expect(packs.flatMap((p) => p.tiles)).toEqual([...planTiles(mixed)])
    expect(packs.every((p) => p.layers.length === 1)).toBe(true)
    expect(packs.filter((p) => p.layers[0] === 'raster/7').every((p) => p.zooms[0] === p.zooms[1])).toBe(true)
  })

  it('reads back each tile and empty tile of a pack, across any chunking', async () => {
    const body = new Uint8Array(3000).map((_, i) => (i * 7) % 251)
    const bytes = packBytes(42, [
      { layer: 'planning', z: 17, x: 104385, y: 61580, body },
      { layer: 'parcels', z: 17, x: 104386, y: 61580, body: null },
    ])
    const read = await readAll(chunked(bytes))
    expect(read.version).toBe(42)
    expect(read.entries).toEqual([
      { layer: 'planning', z: 17, x: 104385, y: 61580, tile: body },
      { layer: 'parcels', z: 17, x: 104386, y: 61580, tile: null },
    ])
  })

  it('rejects a pack cut short, one with a damaged tile, one with a wrong checksum and bytes after the end', async () => {
    const body = new Uint8Array(500).fill(9)
    const good = packBytes(1, [{ layer: 'basemap', z: 16, x: 1, y: 2, body }])
    await expect(readAll(streamOf(good.subarray(0, good.length - 3)))).rejects.toThrow(/cắt ngang/)
    const damaged = good.slice()
    damaged[16 + 24 + 12] = damaged[16 + 24 + 12]! ^ 0xff
    await expect(readAll(streamOf(damaged))).rejects.toThrow(/hỏng/)
    const wrongCrc = good.slice()
    wrongCrc[16 + 20] = wrongCrc[16 + 20]! ^ 0x01
    await expect(readAll(streamOf(wrongCrc))).rejects.toThrow(/hỏng/)
    await expect(readAll(streamOf(good, new Uint8Array([0])))).rejects.toThrow(/hỏng/)
    await expect(readAll(streamOf(new TextEncoder().encode('<html>not a pack</html>')))).rejects.toThrow(/Không phải/)
  })
})
