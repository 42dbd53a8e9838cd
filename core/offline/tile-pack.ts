import { tileLayerIds, type TileLayerId } from '../contract/tiles.ts'
import {
  planTiles,
  tileCorner,
  type Bbox,
  type LayerKey,
  type LayerTile,
  type PlanPart,
  type TileRange,
} from './tile-grid.ts'

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
/**
 * Tiles the app asks per pack, at most: a few seconds of z17–18 parcels on a slow mobile link
 * (docs/performance.md, "Offline packs"). Each request costs a round trip in which its slot of the link
 * idles, so packs are as full as this allows: the low zooms of every layer together in one (a few tiles each), a zoom's
 * layers together while they fit.
 */
export const PACK_TILES = 128
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
export const tileEtag = (version: number, layer: string, z: number, x: number, y: number): string =>
  `W/"${version}-${layer}-${z}-${x}-${y}"`

/** The data version a tile ETag was made for, or null for anything else. */
export function etagVersion(etag: string | null | undefined): number | null {
  const m = etag ? /^W\/"(\d+)-/.exec(etag) : null
  return m ? Number(m[1]) : null
}

/** A pack's own validator: every tile in it changes with the data version and nothing else. */
export const packEtag = (version: number): string => `W/"${version}"`

// CRC-32 (IEEE 802.3, the one gzip uses), table-driven. Written here because its reader is the browser, which
// has no CRC-32 of its own (node:zlib's crc32, which the server and the tests use, is Node's only); the
// tests hold it to node:zlib's on random bytes.
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

/** A rectangle of tiles of one plan part (one layer at one zoom), and their places in the plan. */
export type PartRect = { layer: LayerKey; range: TileRange; tiles: (LayerTile & { index: number })[] }

/** One part cut into rectangles from its tile `from` on; `first` is the plan index of its first tile. */
function* partRects(
  { layer, range, count }: PlanPart,
  first: number,
  from: number,
  maxTiles: number,
): Generator<PartRect> {
  const width = range.maxX - range.minX + 1
  for (let i = Math.max(0, from - first); i < count;) {
    const row = Math.floor(i / width)
    const col = i % width
    // Whole rows when the rectangle starts a row and a row fits, else the rest of the row up to maxTiles.
    const wholeRows =
      col === 0 && width <= maxTiles ? Math.min(Math.floor(maxTiles / width), range.maxY - range.minY + 1 - row) : 0
    const n = wholeRows > 0 ? wholeRows * width : Math.min(width - col, maxTiles)
    const tiles = Array.from({ length: n }, (_, k) => ({
      layer,
      z: range.z,
      x: range.minX + ((i + k) % width),
      y: range.minY + Math.floor((i + k) / width),
      index: first + i + k,
    }))
    const last = tiles[n - 1]!
    yield {
      layer,
      range: {
        z: range.z,
        minX: range.minX + col,
        maxX: wholeRows > 0 ? range.maxX : last.x,
        minY: range.minY + row,
        maxY: last.y,
      },
      tiles,
    }
    i += n
  }
}

/**
 * The plan cut into rectangles of one part each, from tile `from` on: whole rows while they fit in
 * `maxTiles`, else pieces of a row, each holding the plan's tiles in the plan's order.
 */
export function* planRects(plan: readonly PlanPart[], from = 0, maxTiles = PACK_TILES): Generator<PartRect> {
  let first = 0
  for (const part of plan) {
    if (from < first + part.count) yield* partRects(part, first, from, maxTiles)
    first += part.count
  }
}

/**
 * One pack the app asks for: every tile of `box` at each of the zooms for each of the layers, in the
 * server's order (zoom, then the layers as listed, then row by row), and their places in the plan.
 */
export type PackRequest = {
  box: Bbox
  zooms: [number, number]
  layers: LayerKey[]
  tiles: (LayerTile & { index: number })[]
}

const sameBox = (a: Bbox, b: Bbox) => a.every((v, i) => v === b[i])

/**
 * The plan cut into packs, from tile `from` on (a resumed download starts where it stopped), each
 * holding the plan's tiles in the plan's order. Whole parts of the same box go together while they
 * fit in `maxTiles`: runs of whole zooms with the same layers (the low zooms, a few tiles each), or
 * consecutive layers of one zoom, when one server packs them all (`packedBy`, its origin). A part
 * larger than a pack, one begun before `from`, or one of a layer no server packs (`packedBy` null:
 * saved tile by tile) is cut into rectangles of its own.
 */
export function* planPacks(
  plan: readonly PlanPart[],
  opts: { from?: number; maxTiles?: number; packedBy?: (layer: LayerKey) => string | null } = {},
): Generator<PackRequest> {
  const { from = 0, maxTiles = PACK_TILES, packedBy = () => '' } = opts
  const firsts: number[] = []
  let count = 0
  for (const part of plan) {
    firsts.push(count)
    count += part.count
  }
  const zoomEnd = (k: number) => {
    let e = k
    while (e < plan.length && plan[e]!.range.z === plan[k]!.range.z) e++
    return e
  }
  const tilesOf = (a: number, b: number) => plan.slice(a, b).reduce((n, p) => n + p.count, 0)
  const layersOf = (a: number, b: number) => plan.slice(a, b).map((p) => p.layer)
  // Parts a..b can share one pack with part `start`: of its server and its box.
  const joinable = (start: number, a: number, b: number) =>
    plan
      .slice(a, b)
      .every((p) => packedBy(p.layer) === packedBy(plan[start]!.layer) && sameBox(p.box, plan[start]!.box))
  for (let i = 0; i < plan.length;) {
    const part = plan[i]!
    const first = firsts[i]!
    if (from >= first + part.count) {
      i++
      continue
    }
    if (from > first || part.count > maxTiles || packedBy(part.layer) === null) {
      for (const r of partRects(part, first, from, maxTiles))
        yield { box: rangeBbox(r.range), zooms: [r.range.z, r.range.z], layers: [r.layer], tiles: r.tiles }
      i++
      continue
    }
    // The rest of this zoom, and the zooms after it while they have the same layers; else this zoom's layers while they fit.
    let end = i + 1
    const zoom = zoomEnd(i)
    if (joinable(i, i, zoom) && tilesOf(i, zoom) <= maxTiles) {
      end = zoom
      const layers = layersOf(i, zoom).join()
      for (
        let next = zoomEnd(end);
        end < plan.length &&
        layersOf(end, next).join() === layers &&
        joinable(i, end, next) &&
        tilesOf(i, next) <= maxTiles;
        next = zoomEnd(end)
      )
        end = next
    } else {
      while (end < zoom && joinable(i, end, end + 1) && tilesOf(i, end + 1) <= maxTiles) end++
    }
    const tiles = [...planTiles(plan.slice(i, end))].map((t) => ({ ...t, index: first + t.index }))
    yield {
      box: part.box,
      zooms: [part.range.z, plan[end - 1]!.range.z],
      layers: [...new Set(layersOf(i, end))],
      tiles,
    }
    i = end
  }
}

/** The box of a tile rectangle in degrees: its outer edges, which tileRange maps back to exactly these tiles. */
export function rangeBbox(r: TileRange): Bbox {
  const nw = tileCorner(r.z, r.minX, r.minY)
  const se = tileCorner(r.z, r.maxX + 1, r.maxY + 1)
  return [nw.lng, se.lat, se.lng, nw.lat]
}

/**
 * The pack's path and query (append to the server's origin). The box goes with every digit, so the
 * server's tileRange of it gives exactly the plan's ranges.
 */
export function packPath(p: Pick<PackRequest, 'box' | 'zooms' | 'layers'>): string {
  const [z1, z2] = p.zooms
  return `/tiles/pack?bbox=${p.box.map(String).join(',')}&zooms=${z1 === z2 ? z1 : `${z1}-${z2}`}&layers=${p.layers.join(',')}`
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
    if (new TextDecoder().decode(head.subarray(0, 4)) !== PACK_MAGIC || head[4] !== PACK_FORMAT)
      throw new PackFormatError('Không phải gói ô bản đồ.')
    const entries = view.getUint32(12)
    yield { version: view.getUint32(8), entries }
    for (let i = 0; i < entries; i++) {
      const e = await reader.read(PACK_ENTRY_BYTES)
      const ev = new DataView(e.buffer)
      const layer = tileLayerIds[e[0]!]
      const kind = e[2]
      if (!layer || (kind !== entryKind.empty && kind !== entryKind.tile))
        throw new PackFormatError('Gói ô bản đồ hỏng.')
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
      if (tile.length !== ev.getUint32(16) || crc32(tile) !== ev.getUint32(20))
        throw new PackFormatError('Gói ô bản đồ hỏng.')
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
