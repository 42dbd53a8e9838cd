import { tileLayerIds, type TileLayerId } from '../contract/tiles.ts'
import { tileCorner, type Bbox, type LayerKey, type LayerTile, type PlanPart, type TileRange } from './tile-grid.ts'

/**
 * Tile packs: many tiles in one response, so saving an area is a few dozen requests instead of a
 * thousand 2 kB ones (GET /tiles/pack?bbox=&zooms=&layers=). The format is documented in
 * docs/performance.md ("Area downloads in packs"); the server writes it, the app and the bench read it.
 *
 * All integers big-endian.
 *   header  "QHTP" | format u8 = 1 | 3 reserved bytes | data version u32 | entries u32      (16 bytes)
 *   entry   layer u8 | z u8 | kind u8 | reserved u8 | x u32 | y u32
 *           | body length u32 | tile length u32 | tile CRC-32 u32                          (24 bytes)
 *           | body: a gzip member of the tile's protobuf (kind 1), nothing (kind 0, empty tile)
 * `tile length` and `tile CRC-32` are those of the protobuf after gunzip: the reader checks both, so a
 * truncated or damaged pack never reaches the cache.
 */

export const PACK_MAGIC = 'QHTP'
export const PACK_FORMAT = 1
export const PACK_HEADER_BYTES = 16
export const PACK_ENTRY_BYTES = 24
export const PACK_CONTENT_TYPE = 'application/vnd.qh.tile-pack'
/** Tiles one pack may hold: the server refuses more, the app asks for at most this many. */
export const PACK_MAX_TILES = 256
/** What the app asks per pack: about 100–150 kB of tiles at z17–18, a fraction of a second on a slow link. */
export const PACK_TILES = 64
/**
 * Packs a download keeps in flight: one streams while the next is rendered on the server, a third
 * covers the round trip; more would only make a pause redo more.
 */
export const PACK_CONCURRENCY = 3

export const entryKind = { empty: 0, tile: 1 } as const

/** The layer's byte in an entry: its place in the contract's list of tile sets. */
export function layerCode(layer: LayerKey): number {
  const code = (tileLayerIds as readonly string[]).indexOf(layer)
  // Raster overlays are saved tile by tile (packOrigin), never packed.
  if (code < 0) throw new Error(`layer ${layer} is not packed`)
  return code
}

/**
 * The weak ETag of one tile (`/tiles/{layer}/{z}/{x}/{y}.pbf`): the data version and the tile. The
 * server sends it, and the app gives tiles that came in a pack the same one, so a later refresh of a
 * single tile is conditional as usual.
 */
export const tileEtag = (version: number, layer: string, z: number, x: number, y: number): string => `W/"${version}-${layer}-${z}-${x}-${y}"`

/** The data version a tile ETag was made for, or null for anything else. */
export function etagVersion(etag: string | null | undefined): number | null {
  const m = etag ? /^W\/"(\d+)-/.exec(etag) : null
  return m ? Number(m[1]) : null
}

/** A pack's own validator: every tile in it changes with the data version and nothing else. */
export const packEtag = (version: number): string => `W/"${version}"`

// CRC-32 (IEEE 802.3, the one gzip uses), table-driven.
let crcTable: Uint32Array | undefined
export function crc32(bytes: Uint8Array): number {
  const table = (crcTable ??= Uint32Array.from({ length: 256 }, (_, n) => {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    return c >>> 0
  }))
  let crc = 0xffffffff
  for (let i = 0; i < bytes.length; i++) crc = table[(crc ^ bytes[i]!) & 0xff]! ^ (crc >>> 8)
  return (crc ^ 0xffffffff) >>> 0
}

/** One pack the app asks for: a rectangle of tiles of one layer at one zoom, and their places in the plan. */
export type PackRequest = { layer: LayerKey; range: TileRange; tiles: (LayerTile & { index: number })[] }

/**
 * The plan cut into packs, from tile `from` on (a resumed download starts where it stopped). Each
 * pack is a rectangle of one plan part: whole rows while they fit in `maxTiles`, else pieces of a row,
 * so it can be asked for by its box and holds the plan's tiles in the plan's order.
 */
export function* planPacks(plan: readonly PlanPart[], from = 0, maxTiles = PACK_TILES): Generator<PackRequest> {
  let index = 0
  for (const { layer, range, count } of plan) {
    const width = range.maxX - range.minX + 1
    for (let i = Math.max(0, from - index); i < count;) {
      const row = Math.floor(i / width)
      const col = i % width
      // Whole rows when the pack starts a row and a row fits, else the rest of the row up to maxTiles.
      const wholeRows = col === 0 && width <= maxTiles ? Math.min(Math.floor(maxTiles / width), range.maxY - range.minY + 1 - row) : 0
      const n = wholeRows > 0 ? wholeRows * width : Math.min(width - col, maxTiles)
      const tiles = Array.from({ length: n }, (_, k) => ({
        layer,
        z: range.z,
        x: range.minX + ((i + k) % width),
        y: range.minY + Math.floor((i + k) / width),
        index: index + i + k,
      }))
      const last = tiles[n - 1]!
      yield { layer, range: { z: range.z, minX: range.minX + col, maxX: wholeRows > 0 ? range.maxX : last.x, minY: range.minY + row, maxY: last.y }, tiles }
      i += n
    }
    index += count
  }
}

/** The box of a tile rectangle in degrees: its outer edges, which tileRange maps back to exactly these tiles. */
export function rangeBbox(r: TileRange): Bbox {
  const nw = tileCorner(r.z, r.minX, r.minY)
  const se = tileCorner(r.z, r.maxX + 1, r.maxY + 1)
  return [nw.lng, se.lat, se.lng, nw.lat]
}

/** The pack's path and query (append to the server's origin). */
export function packPath(p: Pick<PackRequest, 'layer' | 'range'>): string {
  const bbox = rangeBbox(p.range)
    .map((v) => v.toFixed(9))
    .join(',')
  return `/tiles/pack?bbox=${bbox}&zooms=${p.range.z}&layers=${p.layer}`
}

export type PackEntry = { layer: TileLayerId; z: number; x: number; y: number; tile: Uint8Array<ArrayBuffer> | null }
export type PackHeader = { version: number; entries: number }

export class PackFormatError extends Error {
  override name = 'PackFormatError'
}

/** Bytes from a stream, read exactly as many as asked for. */
class ByteReader {
  #chunks: Uint8Array[] = []
  #have = 0
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>
  constructor(stream: ReadableStream<Uint8Array>) {
    this.#reader = stream.getReader()
  }

  async read(n: number): Promise<Uint8Array<ArrayBuffer>> {
    while (this.#have < n) {
      const { done, value } = await this.#reader.read()
      if (done) throw new PackFormatError('Gói ô bản đồ bị cắt ngang.')
      this.#chunks.push(value)
      this.#have += value.length
    }
    const out = new Uint8Array(n)
    let at = 0
    while (at < n) {
      const chunk = this.#chunks[0]!
      const take = Math.min(chunk.length, n - at)
      out.set(chunk.subarray(0, take), at)
      at += take
      if (take === chunk.length) this.#chunks.shift()
      else this.#chunks[0] = chunk.subarray(take)
    }
    this.#have -= n
    return out
  }

  async atEnd(): Promise<boolean> {
    if (this.#have > 0) return false
    const { done, value } = await this.#reader.read()
    if (done) return true
    this.#chunks.push(value)
    this.#have += value.length
    return value.length === 0 ? this.atEnd() : false
  }

  cancel(): void {
    void this.#reader.cancel().catch(() => undefined)
  }
}

async function gunzip(body: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  const input = new ReadableStream<Uint8Array<ArrayBuffer>>({
    start(c) {
      c.enqueue(body)
      c.close()
    },
  })
  const reader = input.pipeThrough(new DecompressionStream('gzip')).getReader()
  const chunks: Uint8Array[] = []
  let length = 0
  for (let r = await reader.read(); !r.done; r = await reader.read()) {
    chunks.push(r.value)
    length += r.value.length
  }
  const out = new Uint8Array(length)
  let at = 0
  for (const c of chunks) {
    out.set(c, at)
    at += c.length
  }
  return out
}

/**
 * Reads a pack: first its header, then each tile gunzipped and checked against its length and CRC-32.
 * Throws PackFormatError on anything that is not a whole, intact pack (bad magic, cut short, a tile
 * that does not match its checksum, bytes after the last entry).
 */
export async function* readPack(stream: ReadableStream<Uint8Array>): AsyncGenerator<PackHeader | PackEntry> {
  const reader = new ByteReader(stream)
  try {
    const head = await reader.read(PACK_HEADER_BYTES)
    const view = new DataView(head.buffer)
    if (new TextDecoder().decode(head.subarray(0, 4)) !== PACK_MAGIC || head[4] !== PACK_FORMAT) throw new PackFormatError('Không phải gói ô bản đồ.')
    const entries = view.getUint32(12)
    yield { version: view.getUint32(8), entries }
    for (let i = 0; i < entries; i++) {
      const e = await reader.read(PACK_ENTRY_BYTES)
      const ev = new DataView(e.buffer)
      const layer = tileLayerIds[e[0]!]
      const kind = e[2]
      if (!layer || (kind !== entryKind.empty && kind !== entryKind.tile)) throw new PackFormatError('Gói ô bản đồ hỏng.')
      const at = { layer, z: e[1]!, x: ev.getUint32(4), y: ev.getUint32(8) }
      const bodyLength = ev.getUint32(12)
      if (kind === entryKind.empty) {
        if (bodyLength !== 0) throw new PackFormatError('Gói ô bản đồ hỏng.')
        yield { ...at, tile: null }
        continue
      }
      const tile = await gunzip(await reader.read(bodyLength)).catch(() => {
        throw new PackFormatError('Gói ô bản đồ hỏng.')
      })
      if (tile.length !== ev.getUint32(16) || crc32(tile) !== ev.getUint32(20)) throw new PackFormatError('Gói ô bản đồ hỏng.')
      yield { ...at, tile }
    }
    if (!(await reader.atEnd())) throw new PackFormatError('Gói ô bản đồ hỏng.')
  } finally {
    reader.cancel()
  }
}

/** The 16-byte header. */
export function packHeader(version: number, entries: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(PACK_HEADER_BYTES)
  out.set(new TextEncoder().encode(PACK_MAGIC), 0)
  out[4] = PACK_FORMAT
  const view = new DataView(out.buffer)
  view.setUint32(8, version)
  view.setUint32(12, entries)
  return out
}

/**
 * One entry's 24-byte head. `gz` is a gzip member of the tile; its trailer already holds the tile's
 * CRC-32 and length (RFC 1952), so the writer copies them instead of computing them again.
 */
export function packEntryHead(t: LayerTile, gz: Uint8Array | null): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(PACK_ENTRY_BYTES)
  const view = new DataView(out.buffer)
  out[0] = layerCode(t.layer)
  out[1] = t.z
  out[2] = gz ? entryKind.tile : entryKind.empty
  view.setUint32(4, t.x)
  view.setUint32(8, t.y)
  if (gz) {
    const trailer = new DataView(gz.buffer, gz.byteOffset + gz.length - 8, 8)
    view.setUint32(12, gz.length)
    view.setUint32(16, trailer.getUint32(4, true))
    view.setUint32(20, trailer.getUint32(0, true))
  }
  return out
}
