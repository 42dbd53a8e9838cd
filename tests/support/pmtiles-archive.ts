import { zxyToTileId } from 'pmtiles'

/**
 * A minimal PMTiles v3 archive for tests (https://github.com/protomaps/PMTiles/blob/main/spec/v3/spec.md):
 * the 127-byte header, an uncompressed root directory, JSON metadata and the tiles, uncompressed MVT.
 */
export function writePmtiles(
  tiles: { z: number; x: number; y: number; data: Uint8Array }[],
  metadata: object,
  bounds: [number, number, number, number],
): Buffer {
  const sorted = tiles.map((t) => ({ id: zxyToTileId(t.z, t.x, t.y), ...t })).sort((a, b) => a.id - b.id)
  const varints: number[] = []
  const put = (v: number) => {
    for (; v >= 0x80; v = Math.floor(v / 128)) varints.push((v % 128) | 0x80)
    varints.push(v)
  }
  put(sorted.length)
  sorted.forEach((t, i) => put(t.id - (i === 0 ? 0 : sorted[i - 1]!.id)))
  for (const _ of sorted) put(1)
  for (const t of sorted) put(t.data.length)
  let offset = 0
  for (const t of sorted) {
    put(offset + 1)
    offset += t.data.length
  }
  const dir = Buffer.from(varints)
  const meta = Buffer.from(JSON.stringify(metadata))
  const data = Buffer.concat(sorted.map((t) => t.data))
  const h = Buffer.alloc(127)
  h.write('PMTiles', 0, 'ascii')
  h.writeUInt8(3, 7)
  const u64 = (pos: number, v: number) => h.writeBigUInt64LE(BigInt(v), pos)
  u64(8, 127)
  u64(16, dir.length)
  u64(24, 127 + dir.length)
  u64(32, meta.length)
  u64(40, 0)
  u64(48, 0)
  u64(56, 127 + dir.length + meta.length)
  u64(64, data.length)
  u64(72, sorted.length)
  u64(80, sorted.length)
  u64(88, sorted.length)
  h.writeUInt8(1, 96) // clustered
  h.writeUInt8(1, 97) // internal compression: none
  h.writeUInt8(1, 98) // tile compression: none
  h.writeUInt8(1, 99) // MVT
  h.writeUInt8(Math.min(...sorted.map((t) => t.z)), 100)
  h.writeUInt8(Math.max(...sorted.map((t) => t.z)), 101)
  bounds.forEach((v, i) => h.writeInt32LE(Math.round(v * 1e7), 102 + 4 * i))
  h.writeUInt8(sorted[0]?.z ?? 0, 118)
  h.writeInt32LE(Math.round(((bounds[0] + bounds[2]) / 2) * 1e7), 119)
  h.writeInt32LE(Math.round(((bounds[1] + bounds[3]) / 2) * 1e7), 123)
  return Buffer.concat([h, dir, meta, data])
}
