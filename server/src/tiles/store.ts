import type { TileLayerId } from '#core/contract/tiles.ts'
import type { TileRange } from '#core/offline/tile-grid.ts'
import type { Queryable } from '../db/database.ts'

/**
 * The tile store (migration 023): tiles kept in the database per data version, as the gzip member a client
 * receives, null for an empty tile. The filler (store-fill.ts) writes every tile of the data after each new
 * version; the tile service reads from it before rendering and writes what it renders. Being in the database it
 * persists across restarts and is shared by every server process on one PostgreSQL.
 */
export type TileStore = {
  /** The stored tiles of a rectangle of one set and zoom, keyed `x/y`; a tile not in the map is not stored. */
  read(version: number, layer: TileLayerId, r: TileRange): Promise<Map<string, Uint8Array | null>>
  /** Stores tiles; one already stored (by another process meanwhile) is left as it is. */
  write(version: number, layer: TileLayerId, z: number, tiles: StoredTile[]): Promise<void>
}

export type StoredTile = { x: number; y: number; gzip: Uint8Array | null }

export const storedKey = (x: number, y: number) => `${x}/${y}`

const hex = (b: Uint8Array | null) =>
  b === null ? null : Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex')

/**
 * Reads the store through `db` and writes it through `writes` (the primary, when `db` is a read replica), with the
 * statements prepared once per connection (PostgreSQL).
 */
export function createTileStore(db: Queryable, writes: Queryable = db): TileStore {
  return {
    async read(version, layer, r) {
      const rows = await db.query<{ x: number; y: number; gzip: Uint8Array | null }>(
        `select x, y, gzip from tile_store
         where version = $1 and layer = $2 and z = $3 and x between $4 and $5 and y between $6 and $7`,
        [version, layer, r.z, r.minX, r.maxX, r.minY, r.maxY],
        { prepare: 'tile_store_read' },
      )
      return new Map(rows.map((row) => [storedKey(row.x, row.y), row.gzip === null ? null : new Uint8Array(row.gzip)]))
    },
    async write(version, layer, z, tiles) {
      if (tiles.length === 0) return
      // bytea travels as hex text: both drivers pass a text[] parameter the same way.
      await writes.query(
        `insert into tile_store (version, layer, z, x, y, gzip)
         select $1, $2, $3, t.x, t.y, decode(t.gzip, 'hex')
         from unnest($4::int[], $5::int[], $6::text[]) as t(x, y, gzip)
         on conflict do nothing`,
        [version, layer, z, tiles.map((t) => t.x), tiles.map((t) => t.y), tiles.map((t) => hex(t.gzip))],
        { prepare: 'tile_store_write' },
      )
    },
  }
}
