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
  /**
   * One stored tile (undefined when not stored, null when stored empty). The tiles asked for within one turn of the
   * event loop are read together, in one statement: a map screen asks for dozens at once, and on the embedded
   * database each statement waits its turn on the one connection.
   */
  readTile(version: number, layer: TileLayerId, z: number, x: number, y: number): Promise<Uint8Array | null | undefined>
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
  type Asked = {
    layer: TileLayerId
    z: number
    x: number
    y: number
    done: (gzip: Uint8Array | null | undefined) => void
    fail: (err: unknown) => void
  }
  // Per version, the tiles asked for since the last read began.
  const waiting = new Map<number, Asked[]>()

  async function readTogether(version: number, asked: Asked[]): Promise<void> {
    try {
      const rows = await db.query<{ layer: string; z: number; x: number; y: number; gzip: Uint8Array | null }>(
        `select s.layer, s.z, s.x, s.y, s.gzip
         from unnest($2::text[], $3::int[], $4::int[], $5::int[]) as t(layer, z, x, y)
         join tile_store s on s.version = $1 and s.layer = t.layer and s.z = t.z and s.x = t.x and s.y = t.y`,
        [version, asked.map((a) => a.layer), asked.map((a) => a.z), asked.map((a) => a.x), asked.map((a) => a.y)],
        { prepare: 'tile_store_read_tiles' },
      )
      const found = new Map(
        rows.map((r) => [`${r.layer}/${r.z}/${r.x}/${r.y}`, r.gzip === null ? null : new Uint8Array(r.gzip)]),
      )
      for (const a of asked) a.done(found.get(`${a.layer}/${a.z}/${a.x}/${a.y}`))
    } catch (err) {
      for (const a of asked) a.fail(err)
    }
  }

  return {
    readTile(version, layer, z, x, y) {
      return new Promise((done, fail) => {
        let asked = waiting.get(version)
        if (!asked) {
          const batch: Asked[] = []
          asked = batch
          waiting.set(version, batch)
          setImmediate(() => {
            waiting.delete(version)
            void readTogether(version, batch)
          })
        }
        asked.push({ layer, z, x, y, done, fail })
      })
    },
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
