import type { TileLayerId } from '#core/contract/tiles.ts'
import type { TileRange } from '#core/offline/tile-grid.ts'
import type { Queryable } from '../db/database.ts'
import { ByteLru } from './cache.ts'
import { featureBytes, type SourceFeature } from './geometry.ts'
import { tileSets } from './layers.ts'
import { activeLayers, cutTiles, rowZoom, sourceFeatures, sourceRows } from './render.ts'

/**
 * The rows of a tile set read for a rectangle of tiles (a block), kept so that the tiles of deeper
 * zooms inside it are cut from them without another statement: saving an area asks for z16, z17 and
 * z18 of the same parcels one pack after another, and from the set's allRowsFrom on each zoom selects
 * the same rows. A tile comes out the same from a block as from its own statement (what it shows is
 * decided by cutting alone), so the cache only saves work; like the tile cache it is keyed by data
 * version and bounded by bytes.
 */
type Block = { version: number; set: TileLayerId; rect: TileRange; features: Promise<SourceFeature[][]> }

export type RowBlocks = {
  /**
   * Tiles of one set and zoom, each protobuf bytes or null for an empty tile, in the order given.
   * Tiles inside a kept block are cut from it. With `keep`, the others are read as the whole blocks
   * around them (at the rows' zoom) and those are kept; without, they are read for themselves alone.
   */
  render(
    version: number,
    set: TileLayerId,
    z: number,
    tiles: readonly { x: number; y: number }[],
    keep: boolean,
  ): Promise<(Uint8Array<ArrayBuffer> | null)[]>
  clear(): void
}

export function createRowBlocks(db: Queryable, maxBytes: number): RowBlocks {
  const kept = new ByteLru<Block>(maxBytes)
  const reading = new Set<Block>()
  // A block read before clear() must not be kept after it.
  let generation = 0

  function holding(version: number, set: TileLayerId, z: number, x: number, y: number): Block | undefined {
    const rz = rowZoom(tileSets[set], z)
    const bx = x >> (z - rz)
    const by = y >> (z - rz)
    const holds = (b: Block) =>
      b.version === version &&
      b.set === set &&
      b.rect.z === rz &&
      bx >= b.rect.minX &&
      bx <= b.rect.maxX &&
      by >= b.rect.minY &&
      by <= b.rect.maxY
    for (const b of reading) if (holds(b)) return b
    for (const b of kept.values()) if (holds(b)) return b
    return undefined
  }

  function read(version: number, set: TileLayerId, rect: TileRange, keep: boolean): Block {
    const block: Block = {
      version,
      set,
      rect,
      features: sourceRows(db, tileSets[set], rect).then((rows) => sourceFeatures(tileSets[set], rect.z, rows)),
    }
    if (!keep) return block
    const seen = generation
    reading.add(block)
    block.features.then(
      (layers) => {
        reading.delete(block)
        if (seen !== generation) return
        const bytes = layers.reduce((n, fs) => fs.reduce((m, f) => m + featureBytes(f), n), 0)
        kept.set(`${version}/${set}/${rect.z}/${rect.minX}/${rect.minY}/${rect.maxX}/${rect.maxY}`, block, bytes)
      },
      () => reading.delete(block),
    )
    return block
  }

  const around = (z: number, ts: readonly { x: number; y: number }[]): TileRange => ({
    z,
    minX: Math.min(...ts.map((t) => t.x)),
    maxX: Math.max(...ts.map((t) => t.x)),
    minY: Math.min(...ts.map((t) => t.y)),
    maxY: Math.max(...ts.map((t) => t.y)),
  })

  async function render(
    version: number,
    set: TileLayerId,
    z: number,
    tiles: readonly { x: number; y: number }[],
    keep: boolean,
  ) {
    const groups = new Map<Block, number[]>()
    const loose: number[] = []
    tiles.forEach((t, i) => {
      const b = holding(version, set, z, t.x, t.y)
      if (b) groups.set(b, [...(groups.get(b) ?? []), i])
      else loose.push(i)
    })
    if (loose.length > 0) {
      const rz = rowZoom(tileSets[set], z)
      const rect = keep
        ? around(
            rz,
            loose.map((i) => ({ x: tiles[i]!.x >> (z - rz), y: tiles[i]!.y >> (z - rz) })),
          )
        : around(
            z,
            loose.map((i) => tiles[i]!),
          )
      groups.set(read(version, set, rect, keep), loose)
    }
    const out: (Uint8Array<ArrayBuffer> | null)[] = new Array<Uint8Array<ArrayBuffer> | null>(tiles.length)
    const layers = activeLayers(tileSets[set], z)
    for (const [block, indexes] of groups) {
      const cut = cutTiles(
        layers,
        await block.features,
        z,
        indexes.map((i) => tiles[i]!),
      )
      indexes.forEach((i, k) => (out[i] = cut[k] ?? null))
    }
    return out
  }

  return {
    render,
    clear() {
      generation++
      reading.clear()
      kept.clear()
    },
  }
}
