import { open, type FileHandle } from 'node:fs/promises'
import { basename } from 'node:path'
import { PMTiles, TileType, type Source } from 'pmtiles'

/** A PMTiles archive on disk, read by byte ranges (the package's own sources are for browsers and HTTP). */
class FileRangeSource implements Source {
  private handle: Promise<FileHandle> | undefined
  private readonly path: string
  constructor(path: string) {
    this.path = path
  }
  getKey() {
    return this.path
  }
  async getBytes(offset: number, length: number) {
    this.handle ??= open(this.path, 'r')
    const buf = Buffer.alloc(length)
    const { bytesRead } = await (await this.handle).read(buf, 0, length, offset)
    return { data: buf.buffer.slice(buf.byteOffset, buf.byteOffset + bytesRead) }
  }
}

export type PmtilesBasemap = {
  /** The tile's protobuf (decompressed), or null where the archive has none. */
  tile(z: number, x: number, y: number): Promise<Uint8Array<ArrayBuffer> | null>
  /** What the basemap TileJSON takes from the archive instead of the database. */
  info(): Promise<{
    bounds: [number, number, number, number]
    minzoom: number
    maxzoom: number
    attribution: string | undefined
    vectorLayers: unknown[] | undefined
  }>
}

/** BASEMAP_PMTILES: vector basemap tiles served from one archive (e.g. a Protomaps or Planetiler build for Việt Nam). */
export function openPmtilesBasemap(path: string): PmtilesBasemap {
  const archive = new PMTiles(new FileRangeSource(path))
  const header = async () => {
    const h = await archive.getHeader()
    if (h.tileType !== TileType.Mvt) throw new Error(`BASEMAP_PMTILES ${path} không chứa vector tiles (MVT)`)
    return h
  }
  return {
    async tile(z, x, y) {
      await header()
      const r = await archive.getZxy(z, x, y)
      return r && r.data.byteLength > 0 ? new Uint8Array(r.data) : null
    },
    async info() {
      const h = await header()
      const meta = (await archive.getMetadata().catch(() => ({}))) as {
        attribution?: string
        vector_layers?: unknown[]
      }
      return {
        bounds: [h.minLon, h.minLat, h.maxLon, h.maxLat],
        minzoom: h.minZoom,
        maxzoom: h.maxZoom,
        attribution: meta.attribution,
        vectorLayers: meta.vector_layers,
      }
    },
  }
}

/** The basemap TileJSON's fields that come from the archive: its bounds, zooms, layers and attribution. */
export function pmtilesTileJson(info: Awaited<ReturnType<PmtilesBasemap['info']>>, path: string) {
  const [w, s, e, n] = info.bounds
  const num = (v: unknown, d: number) => (typeof v === 'number' ? v : d)
  return {
    bounds: info.bounds,
    minzoom: info.minzoom,
    maxzoom: info.maxzoom,
    center: [(w + e) / 2, (s + n) / 2, Math.min(info.maxzoom, Math.max(info.minzoom, 15))] as [number, number, number],
    attribution: info.attribution ?? `Bản đồ nền — nguồn: ${basename(path)}`,
    vector_layers: (info.vectorLayers ?? []).map((raw) => {
      const l = (raw ?? {}) as Record<string, unknown>
      return {
        id: String(l.id ?? ''),
        description: typeof l.description === 'string' ? l.description : '',
        minzoom: num(l.minzoom, info.minzoom),
        maxzoom: num(l.maxzoom, info.maxzoom),
        fields: (l.fields && typeof l.fields === 'object' ? l.fields : {}) as Record<string, string>,
      }
    }),
  }
}
