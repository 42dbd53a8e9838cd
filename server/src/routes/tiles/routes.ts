import { Hono } from 'hono'
import { z } from 'zod'
import { tileJson, tileLayerIds } from '#core/contract/tiles.ts'
import { readsOf, type AppEnv, type Deps } from '../../deps.ts'
import { acceptsGzip } from '../../http/accepts-gzip.ts'
import { plainAnswer } from '../../http/answer.ts'
import { etagMatches, TILE_CACHE } from '../../http/conditional.ts'
import { tileUrlBase } from '../../http/origin.ts'
import { ApiError } from '../../http/errors.ts'
import { parseOr400, query } from '../../http/validate.ts'
import { endpoint, SEGMENT, tileAddress } from '../../openapi/describe.ts'
import { tileSets } from '../../tiles/layers.ts'
import { packEtag, PACK_CONTENT_TYPE, tileEtag } from '#core/offline/tile-pack.ts'
import { packQuery, packStream } from '../../tiles/pack.ts'
import { createTileService, type TileServiceOptions } from '../../tiles/service.ts'
import { createTileStore } from '../../tiles/store.ts'
import { openPmtilesBasemap, pmtilesTileJson } from '../../tiles/pmtiles-basemap.ts'
import { buildTileJson } from '../../tiles/tilejson.ts'

const MAX_ZOOM = 22

const tileNumber = (label: string) =>
  z
    .string()
    .regex(/^\d{1,7}$/, `${label} phải là số nguyên không âm.`)
    .transform(Number)

export const tileParams = z
  .object({
    layer: z.enum(tileLayerIds, { error: 'Lớp bản đồ phải là basemap, planning hoặc parcels.' }),
    z: z
      .string()
      .regex(/^\d{1,2}$/, `Mức zoom phải là số nguyên từ 0 đến ${MAX_ZOOM}.`)
      .transform(Number)
      .pipe(z.number().max(MAX_ZOOM, `Mức zoom phải là số nguyên từ 0 đến ${MAX_ZOOM}.`)),
    x: tileNumber('x'),
    y: tileNumber('y'),
  })
  .superRefine((t, ctx) => {
    const n = 2 ** t.z
    for (const k of ['x', 'y'] as const) {
      if (t[k] >= n) ctx.addIssue({ code: 'custom', path: [k], message: `${k} phải nhỏ hơn ${n} ở mức zoom ${t.z}.` })
    }
  })

/** Public vector tiles and TileJSON, mounted at /tiles. */
export function tileRoutes(deps: Deps, opts: TileServiceOptions = {}) {
  const basemap = deps.config.basemapPmtiles ? openPmtilesBasemap(deps.config.basemapPmtiles) : undefined
  // Tiles are read where reads go (a replica when there is one), with the data version that replica has
  // reached, so a tile is never cut from older rows than its version says; what is rendered is stored on the primary.
  const reads = readsOf(deps)
  const store = deps.config.tileStore ? createTileStore(reads, deps.db) : undefined
  const service = createTileService(reads, deps.now, { basemap, store, ...opts })

  return new Hono<AppEnv>()
    .get(
      '/pack',
      endpoint({
        summary: 'Nhiều ô vector trong một câu trả lời, để lưu một khu vực',
        tag: 'tiles',
        answer: { binary: PACK_CONTENT_TYPE },
        codes: ['BadRequest'],
      }),
      query(packQuery),
      async (c) => {
        // Many tiles in one answer for saving an area (format: core/offline/tile-pack.ts, docs/performance.md).
        const tiles = c.req.valid('query')
        const version = await service.version()
        const headers: Record<string, string> = {
          ETag: packEtag(version),
          'Cache-Control': 'no-cache',
          'Access-Control-Allow-Origin': '*',
        }
        if (etagMatches(c.req.header('if-none-match'), headers.ETag!)) return c.body(null, 304, headers)
        headers['Content-Type'] = PACK_CONTENT_TYPE
        // Tiles inside are gzipped one by one already; the pack itself is not compressed again.
        return c.body(packStream(service, version, tiles), 200, headers)
      },
    )
    .get(
      `/:name{${SEGMENT}+\\.json}`,
      endpoint({
        summary: 'TileJSON 3.0 của một lớp ({layer}.json: basemap, planning, parcels)',
        tag: 'tiles',
        pathParams: { name: '{layer}.json' },
        answer: { json: tileJson },
        codes: ['NotFound'],
      }),
      async (c) => {
        const id = c.req.param('name').slice(0, -'.json'.length)
        const set = (tileLayerIds as readonly string[]).includes(id) ? tileSets[id as keyof typeof tileSets] : undefined
        if (!set) throw new ApiError('NotFound', 'Không có lớp bản đồ này.')
        const body = await buildTileJson(reads, set, tileUrlBase(deps.config))
        if (set.id === 'basemap' && basemap)
          Object.assign(body, pmtilesTileJson(await basemap.info(), deps.config.basemapPmtiles!))
        // The optional raster basemap (TILE_URL) rides along with the vector basemap, so the app needs no config call.
        const { tileUrl, tileAttribution } = deps.config
        if (set.id === 'basemap' && tileUrl)
          body.raster = { tiles: [tileUrl], attribution: tileAttribution ?? '', maxzoom: 18 }
        return c.json(body, 200, { 'Cache-Control': 'public, max-age=60', 'Access-Control-Allow-Origin': '*' })
      },
    )
    .get(
      `/:layer/:z/:x/:file{${SEGMENT}*\\.pbf}`,
      endpoint({
        summary: 'Một ô vector Mapbox ({y}.pbf)',
        tag: 'tiles',
        pathParams: { layer: 'basemap, planning hoặc parcels', ...tileAddress, file: '{y}.pbf' },
        answer: { binary: 'application/vnd.mapbox-vector-tile', empty: 'Ô trống hoặc ngoài phạm vi dữ liệu' },
        codes: ['NotFound', 'BadRequest'],
      }),
      async (c) => {
        const t = parseOr400(tileParams, {
          layer: c.req.param('layer'),
          z: c.req.param('z'),
          x: c.req.param('x'),
          y: c.req.param('file').slice(0, -'.pbf'.length),
        })
        const version = await service.version()
        // Built from parts (http/answer.ts): a map screen asks for dozens of tiles at once.
        const etag = tileEtag(version, t.layer, t.z, t.x, t.y)
        const headers = {
          etag,
          'cache-control': TILE_CACHE,
          vary: 'Accept-Encoding',
          'access-control-allow-origin': '*',
        }
        if (etagMatches(c.req.header('if-none-match'), etag)) return plainAnswer({ status: 304, body: null, headers })
        const tile = await service.tile(version, t.layer, t.z, t.x, t.y)
        if (!tile) return plainAnswer({ status: 204, body: null, headers })
        if (acceptsGzip(c.req.header('accept-encoding'))) {
          return plainAnswer({
            status: 200,
            body: tile.gzip,
            headers: { ...headers, 'content-type': 'application/x-protobuf', 'content-encoding': 'gzip' },
          })
        }
        return plainAnswer({
          status: 200,
          body: tile.pbf,
          headers: { ...headers, 'content-type': 'application/x-protobuf' },
        })
      },
    )
}
