import { hostname } from 'node:os'
import type { TileLayerId } from '#core/contract/tiles.ts'
import { rangeSize, tileRange, type Bbox, type TileRange } from '#core/offline/tile-grid.ts'
import type { Queryable } from '../db/database.ts'
import type { Traffic } from '../http/traffic.ts'
import type { Logger } from '../logger.ts'
import { givingWay, halfShare, type Pace } from './fill-pace.ts'
import { tileSets, type TileSet } from './layers.ts'
import { activeLayers, cutTiles, sourceFeatures, sourceRowsInPieces } from './render.ts'
import { gzipped } from './service.ts'
import { createTileStore, type StoredTile } from './store.ts'
import { dataVersionWatch, readDataVersion } from './version.ts'

/**
 * Fills the tile store (store.ts) with the tiles of the data for one data version, in the background of a
 * running server. The plan, per tile set and per dataset box (not their union, which for two cities would span the
 * land between): the zooms below `allRowsFrom` as rectangles of up to BAND tiles; then each tile at `allRowsFrom`
 * with every tile below it to DEEPEST, all cut from that one tile's rows (every deeper zoom selects the same rows).
 * A tile there with no rows ends its part: the tiles below it are empty, and are rendered (empty, cheaply) if ever
 * asked for. A box is filled only at the zooms where it spans few enough tiles (BOX_TILES): a dataset the size of
 * the country (the 2025 boundaries) at the zooms that show all of it, and a city's down to its streets and
 * parcels; the rest is rendered on demand as before.
 *
 * Lookups stay fast meanwhile: the work goes in small steps (SLICE tiles cut, or one statement: a piece of a part's
 * rows, a write of BAND tiles), and after each the pace (fill-pace.ts) lets the event loop serve what waits and rests: as
 * long as the step took on an idle server (at most half of a core, and on the embedded database, whose one
 * connection lookups share, half of its time), and longer while the server's requests go on: until they stop, or
 * down to BUSY_SHARE of the time on a server that is never quiet. Each process gives way to its own requests only;
 * several server processes on one database share one fill through a lease in tile_store_fill, so one of them fills.
 * A fill cut short (a restart) resumes at the part it had reached.
 */

/**
 * The deepest zoom filled: the deepest a saved area holds and the map's vector maximum. The parcels' z19–20
 * come, when asked for, from the rows their z16 tile read (row-blocks.ts).
 */
const DEEPEST = 18
/**
 * The most tiles of one zoom over one dataset's box that are filled: below allRowsFrom (the overview, where a
 * country-wide box stops after z11), and at it (each with the tiles below it: a city of five million parcels
 * spans about 12,000 at z16, the country 280,000 at z14).
 */
const BOX_TILES = { overview: 4_096, detail: 65_536 }

/** Tiles per rectangle below allRowsFrom, and per statement writing tiles. */
const BAND = 16
/** Tiles cut between two turns of the event loop: a few milliseconds of work. */
const SLICE = 4
/**
 * A part's rows are read as ROW_PIECES × ROW_PIECES pieces of its box, one statement each: a z16 tile's parcels in
 * one statement held the embedded database's one connection 175–460 ms, and a lookup waited behind it
 * (docs/performance.md, "Round 6").
 */
export const ROW_PIECES = 4
/**
 * Older versions' tiles deleted per statement: few, so a lookup on the embedded database, whose one connection it
 * waits for, never waits long behind one (docs/performance.md, "Figures behind the code's choices").
 */
const DROP_BATCH = 100
const LEASE_SECONDS = 30

export type FillPart = { set: TileLayerId; range: TileRange } | { set: TileLayerId; root: TileRange }

export type FillProgress = { version: number; partsDone: number; partsTotal: number; tiles: number; bytes: number }

/** Each dataset's own box for a set (not their union, which for two cities would span the land between). */
async function setBounds(db: Queryable, set: TileSet): Promise<Bbox[]> {
  const kinds = set.datasetKinds.map((k) => `'${k.replace(/'/g, "''")}'`).join(', ')
  const rows = await db.query<{ w: number; s: number; e: number; n: number }>(
    `select ST_XMin(bounds)::float8 as w, ST_YMin(bounds)::float8 as s, ST_XMax(bounds)::float8 as e, ST_YMax(bounds)::float8 as n
     from datasets where kind in (${kinds}) and bounds is not null order by id`,
  )
  return rows.map((r) => [r.w, r.s, r.e, r.n])
}

/** The tiles of zoom z over the boxes that span at most `most` tiles there, each once, row by row. */
function tilesOver(boxes: Bbox[], z: number, most: number): { x: number; y: number }[] {
  const seen = new Set<string>()
  const out: { x: number; y: number }[] = []
  for (const box of boxes) {
    const r = tileRange(box, z)
    if (rangeSize(r) > most) continue
    for (let y = r.minY; y <= r.maxY; y++)
      for (let x = r.minX; x <= r.maxX; x++) {
        const key = `${x}/${y}`
        if (seen.has(key)) continue
        seen.add(key)
        out.push({ x, y })
      }
  }
  return out.sort((a, b) => a.y - b.y || a.x - b.x)
}

/** The fill's parts for the sets (all by default) over their datasets' bounds (or the boxes given). */
export async function planFill(db: Queryable, opts: { sets?: TileSet[]; bounds?: Bbox[] } = {}): Promise<FillPart[]> {
  const sets = opts.sets ?? Object.values(tileSets)
  const low: FillPart[] = []
  const roots: FillPart[] = []
  for (const set of sets) {
    const boxes = opts.bounds ?? (await setBounds(db, set))
    if (boxes.length === 0) continue
    const rz = Math.max(set.allRowsFrom, set.minzoom)
    for (let z = set.minzoom; z < rz && z <= Math.min(set.maxzoom, DEEPEST); z++) {
      // Runs of up to BAND tiles along each row.
      let run: TileRange | undefined
      for (const t of tilesOver(boxes, z, BOX_TILES.overview)) {
        if (run && run.minY === t.y && run.maxX === t.x - 1 && run.maxX - run.minX + 1 < BAND) run.maxX = t.x
        else {
          if (run) low.push({ set: set.id, range: run })
          run = { z, minX: t.x, maxX: t.x, minY: t.y, maxY: t.y }
        }
      }
      if (run) low.push({ set: set.id, range: run })
    }
    if (rz <= Math.min(set.maxzoom, DEEPEST))
      for (const t of tilesOver(boxes, rz, BOX_TILES.detail))
        roots.push({ set: set.id, root: { z: rz, minX: t.x, maxX: t.x, minY: t.y, maxY: t.y } })
  }
  // The overview of every set first: a map opening on the whole data finds it stored soonest.
  return [...low, ...roots]
}

/** Each zoom's rectangle under a part: the range itself, or the root and every zoom below it to the set's maxzoom. */
function partRanges(part: FillPart): TileRange[] {
  if ('range' in part) return [part.range]
  const { z, minX: x, minY: y } = part.root
  const out: TileRange[] = []
  for (let d = 0; z + d <= Math.min(tileSets[part.set].maxzoom, DEEPEST); d++) {
    const n = 2 ** d
    out.push({ z: z + d, minX: x * n, maxX: x * n + n - 1, minY: y * n, maxY: y * n + n - 1 })
  }
  return out
}

/**
 * Renders and stores one part's tiles; resolves with how many tiles and bytes it stored. A root tile whose
 * rows are empty stores that tile alone (empty).
 */
export async function fillPart(
  db: Queryable,
  version: number,
  part: FillPart,
  pace: Pace,
): Promise<{ tiles: number; bytes: number }> {
  const store = createTileStore(db)
  const set = tileSets[part.set]
  const ranges = partRanges(part)
  const rowsRange = ranges[0]!
  const rows = await sourceRowsInPieces(db, set, rowsRange, ROW_PIECES, pace)
  const shaping = performance.now()
  const features = sourceFeatures(set, rowsRange.z, rows)
  await pace(performance.now() - shaping)
  let tiles = 0
  let bytes = 0
  for (const r of rows.length === 0 ? ranges.slice(0, 1) : ranges) {
    const layers = activeLayers(set, r.z)
    const all: { x: number; y: number }[] = []
    for (let y = r.minY; y <= r.maxY; y++) for (let x = r.minX; x <= r.maxX; x++) all.push({ x, y })
    for (let start = 0; start < all.length; start += BAND) {
      const band = all.slice(start, start + BAND)
      const out: StoredTile[] = []
      for (let i = 0; i < band.length; i += SLICE) {
        const t0 = performance.now()
        const slice = band.slice(i, i + SLICE)
        const cut = rows.length === 0 ? slice.map(() => null) : cutTiles(layers, features, r.z, slice)
        for (const [k, pbf] of cut.entries()) {
          const gzip = pbf ? await gzipped(pbf) : null
          bytes += gzip?.length ?? 0
          out.push({ ...slice[k]!, gzip })
        }
        await pace(performance.now() - t0)
      }
      const write = performance.now()
      await store.write(version, part.set, r.z, out)
      await pace(performance.now() - write)
      tiles += out.length
    }
  }
  return { tiles, bytes }
}

type Lease = { partsDone: number; tiles: number; bytes: number } | 'filled' | 'held'

async function takeLease(db: Queryable, version: number, owner: string, partsTotal: number): Promise<Lease> {
  const [row] = await db.query<{ parts_done: number; tiles: number; bytes: number; finished: boolean }>(
    `insert into tile_store_fill (version, parts_total, owner, lease_until) values ($1, $2, $3, now() + interval '${LEASE_SECONDS} seconds')
     on conflict (version) do update set owner = excluded.owner, lease_until = excluded.lease_until, parts_total = excluded.parts_total
       where tile_store_fill.finished_at is null and (tile_store_fill.owner = excluded.owner or tile_store_fill.owner is null or tile_store_fill.lease_until < now())
     returning parts_done, tiles, bytes::float8 as bytes, finished_at is not null as finished`,
    [version, partsTotal, owner],
  )
  if (row) return { partsDone: row.parts_done, tiles: row.tiles, bytes: row.bytes }
  const [other] = await db.query<{ finished: boolean }>(
    'select finished_at is not null as finished from tile_store_fill where version = $1',
    [version],
  )
  return other?.finished ? 'filled' : 'held'
}

/** Whether this version's fill is finished (by this process or another). */
export async function isFilled(db: Queryable, version: number): Promise<boolean> {
  const rows = await db.query('select 1 from tile_store_fill where version = $1 and finished_at is not null', [version])
  return rows.length > 0
}

/** Deletes the tiles of versions older than `version`, a batch at a time so other statements get their turn. */
async function dropOlder(db: Queryable, version: number, pace: Pace): Promise<void> {
  for (;;) {
    const t0 = performance.now()
    const gone = await db.query(
      `delete from tile_store where ctid in (select ctid from tile_store where version < $1 limit ${DROP_BATCH}) returning 1`,
      [version],
    )
    await pace(performance.now() - t0)
    if (gone.length < DROP_BATCH) break
  }
  await db.query('delete from tile_store_fill where version < $1', [version])
}

export type FillOptions = {
  sets?: TileSet[]
  bounds?: Bbox[]
  pace?: Pace
  /** Checked between parts: true stops the fill (a newer version, the server closing). */
  stop?: () => boolean
  onProgress?: (p: FillProgress) => void
  owner?: string
}

export type FillOutcome = 'filled' | 'held' | 'stopped'

/**
 * Fills the store for `version` from where it stands: 'filled' when every part is stored (now or before),
 * 'held' when another process holds the lease, 'stopped' when `stop` said so (what is stored stays, and the
 * next fill of the same version resumes after it).
 */
export async function fillTileStore(db: Queryable, version: number, opts: FillOptions = {}): Promise<FillOutcome> {
  const pace = opts.pace ?? halfShare
  const owner = opts.owner ?? `${hostname()}:${process.pid}`
  if (await isFilled(db, version)) return 'filled'
  const parts = await planFill(db, opts)
  const lease = await takeLease(db, version, owner, parts.length)
  if (lease === 'filled' || lease === 'held') return lease
  await dropOlder(db, version, pace)
  let { partsDone, tiles, bytes } = lease
  for (; partsDone < parts.length; partsDone++) {
    if (opts.stop?.()) return 'stopped'
    const done = await fillPart(db, version, parts[partsDone]!, pace)
    tiles += done.tiles
    bytes += done.bytes
    const kept = await db.query(
      `update tile_store_fill set parts_done = $2, tiles = $3, bytes = $4, lease_until = now() + interval '${LEASE_SECONDS} seconds'
       where version = $1 and owner = $5 returning 1`,
      [version, partsDone + 1, tiles, bytes, owner],
    )
    // Another process took the lease over (this one stalled past it): it carries on.
    if (kept.length === 0) return 'held'
    opts.onProgress?.({ version, partsDone: partsDone + 1, partsTotal: parts.length, tiles, bytes })
  }
  await db.query(
    'update tile_store_fill set finished_at = now(), owner = null, lease_until = null where version = $1 and owner = $2',
    [version, owner],
  )
  return 'filled'
}

/** The newest fill, for `npm run datasets`. */
export async function tileStoreStatus(
  db: Queryable,
): Promise<(FillProgress & { finished: boolean; current: boolean }) | null> {
  const [row] = await db.query<{
    version: number
    parts_done: number
    parts_total: number
    tiles: number
    bytes: number
    finished: boolean
  }>(
    `select version::float8 as version, parts_done, parts_total, tiles, bytes::float8 as bytes, finished_at is not null as finished
     from tile_store_fill order by version desc limit 1`,
  )
  if (!row) return null
  return {
    version: row.version,
    partsDone: row.parts_done,
    partsTotal: row.parts_total,
    tiles: row.tiles,
    bytes: row.bytes,
    finished: row.finished,
    current: row.version === (await readDataVersion(db)),
  }
}

const int = new Intl.NumberFormat('vi-VN')

/** The store's line in `npm run datasets`. */
export function formatTileStore(s: Awaited<ReturnType<typeof tileStoreStatus>>): string {
  if (!s) return 'Kho tile: chưa có (máy chủ vẽ sẵn mọi tile sau khi chạy với dữ liệu này).'
  const size = `${int.format(s.tiles)} tile, ${(s.bytes / 1e6).toFixed(1).replace('.', ',')} MB`
  if (!s.current)
    return `Kho tile: của phiên bản dữ liệu ${s.version}, cũ; máy chủ vẽ lại cho phiên bản hiện tại khi chạy (${size}).`
  if (s.finished) return `Kho tile: đủ cho phiên bản dữ liệu ${s.version} (${size}).`
  const pct = Math.floor((s.partsDone / Math.max(1, s.partsTotal)) * 100)
  return `Kho tile: đang vẽ sẵn cho phiên bản dữ liệu ${s.version}, ${pct} % (${int.format(s.partsDone)}/${int.format(s.partsTotal)} phần, ${size}).`
}

/** Progress lines for the log: at most one per 10 % of the parts or per 30 s. */
export function progressLogger(logger: Logger): (p: FillProgress) => void {
  let lastAt = performance.now()
  // The first part done is logged: the fill has begun.
  let lastTenth = -1
  return (p) => {
    const tenth = Math.floor((p.partsDone / Math.max(1, p.partsTotal)) * 10)
    if (tenth === lastTenth && performance.now() - lastAt < 30_000) return
    lastAt = performance.now()
    lastTenth = tenth
    logger.info('tile store filling', {
      version: p.version,
      parts: `${p.partsDone}/${p.partsTotal}`,
      tiles: p.tiles,
      mb: Math.round(p.bytes / 1e5) / 10,
    })
  }
}

export type TileStoreFiller = {
  /** Settles when the fill begun at start has ended (filled, held by another process, or stopped). */
  started: Promise<void>
  stop(): Promise<void>
}

/**
 * The server's filler: fills the store for the current data version at start and again after every new one (heard
 * at once on PostgreSQL, read every 30 s otherwise), retrying while another process holds the lease or the
 * database is away.
 */
export function startTileStoreFill(deps: {
  db: Queryable
  logger: Logger
  /** The requests the filler gives way to (fill-pace.ts); without them it takes half a share. */
  traffic?: Traffic
  pace?: Pace
  /** The sets and boxes to fill (tests); by default every set over its datasets. */
  plan?: Pick<FillOptions, 'sets' | 'bounds'>
}): TileStoreFiller {
  const { db, logger } = deps
  const watch = dataVersionWatch(db)
  let stopping = false
  let changed = false
  let running: Promise<void> | undefined
  let timer: ReturnType<typeof setTimeout> | undefined
  const progress = progressLogger(logger)
  const pace = deps.pace ?? (deps.traffic ? givingWay(deps.traffic) : halfShare)

  const later = (ms: number) => {
    clearTimeout(timer)
    if (!stopping) timer = setTimeout(() => void run(), ms)
    timer?.unref()
  }

  /** Fills the current version; again if a newer one came meanwhile. */
  async function once(): Promise<void> {
    do {
      changed = false
      const version = await readDataVersion(db)
      const t0 = performance.now()
      let worked = false
      const outcome = await fillTileStore(db, version, {
        ...deps.plan,
        pace,
        stop: () => stopping || changed,
        onProgress: (p) => {
          worked = true
          progress(p)
        },
      })
      if (outcome === 'filled' && worked) {
        const status = await tileStoreStatus(db)
        logger.info('tile store filled', {
          version,
          tiles: status?.tiles,
          mb: status ? Math.round(status.bytes / 1e5) / 10 : undefined,
          ms: Math.round(performance.now() - t0),
        })
      }
      if (outcome === 'held') later(LEASE_SECONDS * 1000)
    } while (changed && !stopping)
  }

  function run(): Promise<void> {
    if (stopping) return Promise.resolve()
    if (running) {
      changed = true
      return running
    }
    running = once()
      .catch((err: unknown) => {
        logger.warn('tile store fill failed; retrying in 30 s', {
          error: err instanceof Error ? err.message : String(err),
        })
        later(30_000)
      })
      .finally(() => (running = undefined))
    return running
  }

  // A new version (an import, a dataset removed) from this or another process.
  watch.subscribe(() => void run())
  // Without notifications (the embedded database, or PostgreSQL's watch lost) the version is read now and then.
  const poll = setInterval(() => {
    if (watch.live() || running) return
    void readDataVersion(db)
      .then((v) => isFilled(db, v))
      .then(
        (filled) => (filled ? undefined : run()),
        () => undefined,
      )
  }, 30_000)
  poll.unref()

  const started = run()
  return {
    started,
    async stop() {
      stopping = true
      clearTimeout(timer)
      clearInterval(poll)
      await running
    },
  }
}
