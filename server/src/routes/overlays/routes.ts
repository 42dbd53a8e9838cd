import { Hono } from 'hono'
import sharp from 'sharp'
import { z } from 'zod'
import { overlayList, type OverlayTileJson } from '#core/contract/tiles.ts'
import type { AppEnv, Deps } from '../../deps.ts'
import { ApiError } from '../../http/errors.ts'
import { parseOr400 } from '../../http/validate.ts'
import { endpoint, SEGMENT, tileAddress } from '../../openapi/describe.ts'
import { etagMatches, TILE_CACHE } from '../../http/conditional.ts'
import { tileOrigin } from '../../http/origin.ts'
import { ByteLru } from '../../tiles/cache.ts'
import { fromMercator, TILE_PX, tileBox } from '../../overlays/mercator.ts'
import { listOverlays, overlayTile, type OverlayRow } from '../../overlays/store.ts'

const num = z
  .string()
  .regex(/^\d{1,7}$/)
  .transform(Number)
const rasterParams = z
  .object({
    id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,79}$/, 'Mã bản đồ không hợp lệ.'),
    z: z
      .string()
      .regex(/^\d{1,2}$/, 'Mức zoom phải là số nguyên từ 0 đến 22.')
      .transform(Number)
      .pipe(z.number().max(22, 'Mức zoom phải là số nguyên từ 0 đến 22.')),
    x: num,
    y: num,
    format: z.enum(['png', 'webp']),
  })
  .superRefine((t, ctx) => {
    for (const k of ['x', 'y'] as const) {
      if (t[k] >= 2 ** t.z)
        ctx.addIssue({ code: 'custom', path: [k], message: `${k} phải nhỏ hơn ${2 ** t.z} ở mức zoom ${t.z}.` })
    }
  })

let blank: Promise<{ png: Buffer; webp: Buffer }> | undefined
/** The transparent tile answered inside an overlay's bounds where the sheet has nothing (a rotated sheet's corners). */
function blankTiles() {
  blank ??= (async () => {
    const img = () =>
      sharp({ create: { width: TILE_PX, height: TILE_PX, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
    return { png: await img().png().toBuffer(), webp: await img().webp({ lossless: true }).toBuffer() }
  })()
  return blank
}

function tileJsonOf(o: OverlayRow, origin: string): OverlayTileJson {
  const [w, s, e, n] = o.bounds
  return {
    tilejson: '3.0.0',
    id: o.id,
    name: o.name,
    description: `${o.plan_level} — Quyết định ${o.decision_no} ngày ${o.approved_at}`,
    attribution: o.source,
    scheme: 'xyz',
    tiles: [`${origin}/tiles/raster/${encodeURIComponent(o.id)}/{z}/{x}/{y}.png`],
    minzoom: o.minzoom,
    maxzoom: o.maxzoom,
    bounds: [w, s, e, n],
    center: [(w + e) / 2, (s + n) / 2, Math.min(o.maxzoom, o.minzoom + 2)],
    plan_level: o.plan_level,
    decision_no: o.decision_no,
    approved_at: o.approved_at,
  }
}

/** `/tiles/overlays.json` and `/tiles/raster/{id}/{z}/{x}/{y}.{png,webp}`, mounted at /tiles before the vector tiles. */
export function overlayRoutes(deps: Deps) {
  // WebP is made from the stored PNG on demand; recently asked ones are kept (32 MB per process).
  const webpCache = new ByteLru<Buffer>(32 * 1024 * 1024)
  return new Hono<AppEnv>()
    .get(
      '/overlays.json',
      endpoint({
        summary: 'Danh sách bản đồ quy hoạch dạng ảnh (TileJSON 3.0)',
        tag: 'tiles',
        answer: { json: overlayList },
        codes: [],
      }),
      async (c) => {
        const origin = tileOrigin(c, deps.config)
        const body = (await listOverlays(deps.db)).map((o) => tileJsonOf(o, origin))
        return c.json(body, 200, { 'Cache-Control': 'public, max-age=60', 'Access-Control-Allow-Origin': '*' })
      },
    )
    .get(
      `/raster/:id/:z/:x/:file{${SEGMENT}+\\.(png|webp)}`,
      endpoint({
        summary: 'Một ô ảnh của bản đồ quy hoạch dạng ảnh ({y}.png hoặc {y}.webp)',
        tag: 'tiles',
        pathParams: { id: 'Mã bản đồ', ...tileAddress, file: '{y}.png hoặc {y}.webp' },
        answer: { binary: 'image/png', empty: 'Ngoài phạm vi của bản đồ' },
        codes: ['NotFound', 'BadRequest'],
      }),
      async (c) => {
        const file = c.req.param('file')
        const dot = file.lastIndexOf('.')
        const t = parseOr400(rasterParams, {
          id: c.req.param('id'),
          z: c.req.param('z'),
          x: c.req.param('x'),
          y: file.slice(0, dot),
          format: file.slice(dot + 1),
        })
        const found = await overlayTile(deps.db, t.id, t.z, t.x, t.y)
        if (!found) throw new ApiError('NotFound', 'Không có bản đồ quy hoạch này.')
        const headers: Record<string, string> = {
          ETag: `"${found.revision}-${t.z}-${t.x}-${t.y}-${t.format}"`,
          'Cache-Control': TILE_CACHE,
          'Access-Control-Allow-Origin': '*',
        }
        const box = tileBox(t.z, t.x, t.y)
        const [west, south] = fromMercator(box.minX, box.minY)
        const [east, north] = fromMercator(box.maxX, box.maxY)
        const [bw, bs, be, bn] = found.bounds
        const outside =
          t.z < found.minzoom || t.z > found.maxzoom || west >= be || east <= bw || south >= bn || north <= bs
        if (outside) return c.body(null, 204, headers)
        if (etagMatches(c.req.header('if-none-match'), headers.ETag!)) return c.body(null, 304, headers)
        headers['Content-Type'] = t.format === 'png' ? 'image/png' : 'image/webp'
        if (!found.png) {
          const b = await blankTiles()
          return c.body(new Uint8Array(t.format === 'png' ? b.png : b.webp), 200, headers)
        }
        if (t.format === 'png') return c.body(new Uint8Array(found.png), 200, headers)
        const key = headers.ETag!
        let webp = webpCache.get(key)
        if (!webp) {
          webp = await sharp(found.png).webp({ quality: 90, alphaQuality: 100 }).toBuffer()
          webpCache.set(key, webp, webp.length)
        }
        return c.body(new Uint8Array(webp), 200, headers)
      },
    )
}
