import { spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { PDFDocument } from 'pdf-lib'
import proj4 from 'proj4'
import sharp from 'sharp'
import { beforeAll, describe, expect, it } from 'vitest'
import { overlayList } from '#core/contract/tiles.ts'
import { fromVn2000 } from '#core/geo/vn2000.ts'
import { planningData } from '#core/contract/lookups.ts'
import { createTestUser } from '../accounts/test-user.ts'
import type { Database } from '../db/index.ts'
import { ImportError } from '../import/errors.ts'
import { demoLoaded } from '../testing/demo.ts'
import { createTestApp, type TestApp } from '../testing/test-app.ts'
import {
  geoPdf,
  geoTiff,
  pngWithWorldFile,
  QUARTER_COLOURS,
  quarterImage,
  restructurePdf,
  tempDir,
  vectorPdf,
} from './fixtures/sheets.ts'
import type { GeoTransform } from './gcp.ts'
import { parseOverlayCrs } from './georef.ts'
import { importOverlay, type OverlayImportOptions } from './import-overlay.ts'
import { HALF_WORLD, resolutionAt, TILE_PX, toMercator } from './mercator.ts'
import { readGeospatialPdf } from './geospatial-pdf.ts'
import { PdfDocument, SET_ASIDE_BYTES } from './pdf/pdf-document.ts'
import { overlaysAt } from './store.ts'

const MERIDIAN = 107.75
const VN2000 = parseOverlayCrs(`vn2000:${MERIDIAN}`)!
// A 512 × 384 m sheet at 1 m a pixel in Đà Nẵng (VN-2000 easting 548 000, northing 1 775 000).
const W = 512
const H = 384
const GT: GeoTransform = [548000, 1, 0, 1775000, 0, -1]
const run = Date.now().toString(36)

let t: TestApp
let db: Database
let dir: string

beforeAll(async () => {
  t = await createTestApp()
  db = t.db
  dir = tempDir()
})

const base = (id: string, file: string, extra: Partial<OverlayImportOptions> = {}): OverlayImportOptions => ({
  file,
  id: `${id}-${run}`,
  name: `Bản đồ ${id}`,
  planLevel: 'QHPK 1/2000',
  decisionNo: '1234/QĐ-UBND',
  approvedAt: '2024-05-20',
  ...extra,
})

/** WGS84 of a pixel of the test sheet (its VN-2000 grid through the DOMAIN.md parameters). */
function lngLatOfPixel(px: number, ln: number, gt: GeoTransform = GT): [number, number] {
  const east = gt[0] + gt[1] * px + gt[2] * ln
  const north = gt[3] + gt[4] * px + gt[5] * ln
  const p = fromVn2000(north, east, MERIDIAN)
  return [p.lng, p.lat]
}

/** The colour the served tile shows at a WGS84 point, at zoom z. */
async function colourAt(
  id: string,
  z: number,
  lng: number,
  lat: number,
  format: 'png' | 'webp' = 'png',
): Promise<number[]> {
  const [mx, my] = toMercator(lng, lat)
  const gx = (mx + HALF_WORLD) / resolutionAt(z)
  const gy = (HALF_WORLD - my) / resolutionAt(z)
  const x = Math.floor(gx / TILE_PX)
  const y = Math.floor(gy / TILE_PX)
  const res = await t.app.request(`/tiles/raster/${id}/${z}/${x}/${y}.${format}`)
  expect(res.status, `${id} ${z}/${x}/${y}`).toBe(200)
  expect(res.headers.get('content-type')).toBe(`image/${format}`)
  const { data, info } = await sharp(Buffer.from(await res.arrayBuffer()))
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true })
  expect([info.width, info.height]).toEqual([TILE_PX, TILE_PX])
  const i = (Math.floor(gy - y * TILE_PX) * TILE_PX + Math.floor(gx - x * TILE_PX)) * 4
  return [data[i]!, data[i + 1]!, data[i + 2]!, data[i + 3]!]
}

function expectColour(actual: number[], rgb: readonly number[]) {
  expect(actual[3], 'alpha').toBe(255)
  actual
    .slice(0, 3)
    .forEach((v, i) =>
      expect(Math.abs(v - rgb[i]!), `channel ${i} of ${actual.join(',')} vs ${rgb.join(',')}`).toBeLessThanOrEqual(10),
    )
}

/** Each quarter's centre, as pixel coordinates of the sheet. */
const quarterCentres = (w: number, h: number) =>
  [
    ['nw', w / 4, h / 4],
    ['ne', (3 * w) / 4, h / 4],
    ['sw', w / 4, (3 * h) / 4],
    ['se', (3 * w) / 4, (3 * h) / 4],
  ] as const

async function stored(id: string): Promise<number> {
  const rows = await db.query<{ n: number }>('select count(*)::int as n from raster_overlays where id = $1', [id])
  return rows[0]!.n
}

describe('raster planning overlays', () => {
  it('imports a GeoTIFF in VN-2000 and serves its tiles with the sheet’s colours where the map says they are', async () => {
    const file = await geoTiff(dir, 'geotiff', W, H, GT, MERIDIAN)
    const s = await importOverlay(db, base('geotiff', file))
    expect(s).toMatchObject({ georef: 'geotiff', width: W, height: H, minzoom: 16, maxzoom: 17 })
    expect(s.tiles).toBeGreaterThan(4)
    for (const z of [s.maxzoom, s.minzoom]) {
      for (const [q, px, ln] of quarterCentres(W, H))
        expectColour(await colourAt(s.id, z, ...lngLatOfPixel(px, ln)), QUARTER_COLOURS[q])
    }
    // WebP of the same tile shows the same place.
    expectColour(await colourAt(s.id, s.maxzoom, ...lngLatOfPixel(W / 4, H / 4), 'webp'), QUARTER_COLOURS.nw)
  })

  it('imports a PNG with its world file and --crs, transparent just outside the sheet', async () => {
    const file = await pngWithWorldFile(dir, 'world', W, H, GT)
    const s = await importOverlay(db, base('world', file, { crs: VN2000 }))
    expect(s.georef).toBe('world-file')
    for (const [q, px, ln] of quarterCentres(W, H))
      expectColour(await colourAt(s.id, s.maxzoom, ...lngLatOfPixel(px, ln)), QUARTER_COLOURS[q])
    // 6 m west of the sheet's west edge, half-way down: no sheet there.
    const outside = await colourAt(s.id, s.maxzoom, ...lngLatOfPixel(-6, H / 2))
    expect(outside[3]).toBe(0)
  })

  it('cuts a sheet wider than one warp block (2048 px) with every block in place', async () => {
    const ww = 2400
    const wh = 96
    const file = await pngWithWorldFile(dir, 'wide', ww, wh, [547000, 1, 0, 1774000, 0, -1])
    const s = await importOverlay(db, base('wide', file, { crs: VN2000 }))
    expect(s.maxzoom).toBe(17)
    for (const [q, px, ln] of quarterCentres(ww, wh)) {
      expectColour(
        await colourAt(s.id, 17, ...lngLatOfPixel(px, ln, [547000, 1, 0, 1774000, 0, -1])),
        QUARTER_COLOURS[q],
      )
    }
  })

  it('places a scan by control points in WGS84, prints each residual and shows the right colours', async () => {
    const gw = 400
    const gh = 300
    const file = join(dir, 'gcp.png')
    writeFileSync(file, await quarterImage(gw, gh))
    const gt: GeoTransform = [549000, 1.2, 0, 1776000, 0, -1.2]
    const points = [
      [10, 10],
      [390, 12],
      [15, 290],
      [385, 288],
      [200, 150],
    ].map(([px, ln]) => {
      const [lng, lat] = lngLatOfPixel(px!, ln!, gt)
      return { pixel: px!, line: ln!, a: lat, b: lng }
    })
    const lines: string[] = []
    const s = await importOverlay(db, base('gcp', file, { gcps: points, log: (l) => lines.push(l) }))
    expect(s.georef).toBe('gcp')
    expect(lines.filter((l) => /^Điểm khống chế \d \(cột \d+, dòng \d+\): sai số \d+\.\d\d m$/.test(l))).toHaveLength(5)
    expect(Math.max(...s.residuals)).toBeLessThan(0.1)
    for (const [q, px, ln] of quarterCentres(gw, gh))
      expectColour(await colourAt(s.id, s.maxzoom, ...lngLatOfPixel(px, ln, gt)), QUARTER_COLOURS[q])
  })

  it('refuses control points with a residual over the threshold, naming the point, and stores nothing', async () => {
    const file = join(dir, 'gcp-bad.png')
    writeFileSync(file, await quarterImage(200, 200))
    const gt: GeoTransform = [549000, 1, 0, 1776000, 0, -1]
    const points = [
      [0, 0],
      [200, 0],
      [0, 200],
      [200, 200],
    ].map(([px, ln]) => {
      const [lng, lat] = lngLatOfPixel(px!, ln!, gt)
      return { pixel: px!, line: ln!, a: lat, b: lng }
    })
    points[3]!.a += 0.0003 // ≈33 m north
    const opts = base('gcp-bad', file, { gcps: points })
    await expect(importOverlay(db, opts)).rejects.toThrow(/Điểm khống chế \d lệch \d+\.\d\d m \(tối đa 5 m\)/)
    expect(await stored(opts.id!)).toBe(0)
  })

  it('lists the overlays as TileJSON 3.0 with the plan, answers 204 outside an overlay’s bounds, 304 for a known ETag and 404 for an unknown id', async () => {
    const file = await pngWithWorldFile(dir, 'listed', W, H, [548600, 1, 0, 1775000, 0, -1])
    const s = await importOverlay(
      db,
      base('listed', file, {
        crs: VN2000,
        planLevel: 'QHCT 1/500',
        decisionNo: '99/QĐ-UBND',
        approvedAt: '2025-01-02',
      }),
    )
    const res = await t.request('/tiles/overlays.json')
    expect(res.status).toBe(200)
    const mine = overlayList.parse(res.body).find((o) => o.id === s.id)
    expect(mine).toMatchObject({
      tilejson: '3.0.0',
      plan_level: 'QHCT 1/500',
      decision_no: '99/QĐ-UBND',
      approved_at: '2025-01-02',
      minzoom: 16,
      maxzoom: 17,
    })
    expect(mine!.tiles[0]).toMatch(new RegExp(`/tiles/raster/${s.id}/\\{z\\}/\\{x\\}/\\{y\\}\\.png$`))
    const [w, south, e, n] = mine!.bounds
    const [sw, ss] = lngLatOfPixel(0, H)
    expect(w).toBeCloseTo(lngLatOfPixel(0, 0, [548600, 1, 0, 1775000, 0, -1])[0], 4)
    expect(e).toBeGreaterThan(w)
    expect(n).toBeGreaterThan(south)
    expect(sw + ss).toBeGreaterThan(0)

    const far = await t.app.request(`/tiles/raster/${s.id}/17/0/0.png`)
    expect(far.status).toBe(204)
    expect(far.headers.get('etag')).toBeTruthy()
    const low = await t.app.request(`/tiles/raster/${s.id}/3/6/3.png`)
    expect(low.status).toBe(204)

    const [mx, my] = toMercator((w + e) / 2, (south + n) / 2)
    const x = Math.floor((mx + HALF_WORLD) / resolutionAt(17) / TILE_PX)
    const y = Math.floor((HALF_WORLD - my) / resolutionAt(17) / TILE_PX)
    const first = await t.app.request(`/tiles/raster/${s.id}/17/${x}/${y}.png`)
    expect(first.status).toBe(200)
    expect(first.headers.get('cache-control')).toMatch(/max-age=\d+/)
    const etag = first.headers.get('etag')!
    const again = await t.app.request(`/tiles/raster/${s.id}/17/${x}/${y}.png`, { headers: { 'If-None-Match': etag } })
    expect(again.status).toBe(304)

    const unknown = await t.request('/tiles/raster/no-such-overlay/17/1/1.png')
    expect(unknown.status).toBe(404)
    expect(unknown.body.meta.code).toBe('NotFound')
    const bad = await t.request(`/tiles/raster/${s.id}/17/${2 ** 17}/1.png`)
    expect(bad.status).toBe(400)
  })

  it('names the overlays whose sheet covers a point, the most detailed plan first, and none elsewhere', async () => {
    const file = await pngWithWorldFile(dir, 'cover', W, H, GT)
    const a = await importOverlay(db, base('cover-a', file, { crs: VN2000, planLevel: 'QHPK 1/2000' }))
    const b = await importOverlay(
      db,
      base('cover-b', file, { crs: VN2000, planLevel: 'QHCT 1/500', approvedAt: '2020-01-01' }),
    )
    const [lng, lat] = lngLatOfPixel(W / 2, H / 2)
    const here = (await overlaysAt(db, lat, lng)).map((o) => o.id)
    expect(here.indexOf(b.id)).toBeGreaterThanOrEqual(0)
    expect(here.indexOf(b.id)).toBeLessThan(here.indexOf(a.id))
    // A newer QHPK over the same sheet: both kept, the older one replaced by it.
    const c = await importOverlay(
      db,
      base('cover-c', file, {
        crs: VN2000,
        planLevel: 'QHPK 1/2000',
        decisionNo: '77/QĐ-UBND',
        approvedAt: '2026-02-01',
      }),
    )
    const versions = await overlaysAt(db, lat, lng)
    expect(versions.find((o) => o.id === c.id)?.replaced_by).toBeNull()
    expect(versions.find((o) => o.id === a.id)?.replaced_by).toEqual({
      decision_no: '77/QĐ-UBND',
      approved_at: '2026-02-01',
    })
    expect(versions.find((o) => o.id === b.id)?.replaced_by).toBeNull()
    const [lng2, lat2] = lngLatOfPixel(-50, H / 2)
    const there = (await overlaysAt(db, lat2, lng2)).map((o) => o.id)
    expect(there).not.toContain(a.id)
    expect(there).not.toContain(b.id)
  })

  it('/api/planning lists the overlays under the tapped point', async () => {
    await demoLoaded()
    const user = await createTestUser(t)
    const [spot] = await db.query<{ lat: number; lng: number }>(
      `select ST_Y(ST_PointOnSurface(geom))::float8 as lat, ST_X(ST_PointOnSurface(geom))::float8 as lng from parcels where dataset_id = 'demo' order by id limit 1`,
    )
    // A 100 × 100 px sheet, 0.00002° a pixel, centred on the parcel, placed by a WGS84 world file.
    const file = await pngWithWorldFile(dir, 'demo-spot', 100, 100, [
      spot!.lng - 0.001,
      0.00002,
      0,
      spot!.lat + 0.001,
      0,
      -0.00002,
    ])
    const s = await importOverlay(db, base('demo-spot', file, { crs: parseOverlayCrs('EPSG:4326')! }))
    const res = await t.request(`/api/planning?lat=${spot!.lat}&lng=${spot!.lng}`, { token: user.token })
    expect(res.status).toBe(200)
    const data = planningData.parse(res.body.data)
    expect(data.overlays).toContainEqual({
      id: s.id,
      name: 'Bản đồ demo-spot',
      plan_level: 'QHPK 1/2000',
      decision_no: '1234/QĐ-UBND',
      approved_at: '2024-05-20',
      replaced_by: null,
    })
  })

  it('re-importing the same id replaces the overlay', async () => {
    const file = await pngWithWorldFile(dir, 'again', 256, 256, GT)
    const first = await importOverlay(db, base('again', file, { crs: VN2000 }))
    const second = await importOverlay(db, base('again', file, { crs: VN2000, decisionNo: '2/QĐ' }))
    expect(first.replaced).toBe(false)
    expect(second.replaced).toBe(true)
    const rows = await db.query<{ decision_no: string }>('select decision_no from raster_overlays where id = $1', [
      second.id,
    ])
    expect(rows).toEqual([{ decision_no: '2/QĐ' }])
  })
})

/** The sheet's quarters show their colours where the map says they are. */
const checkSheet = async (
  id: string,
  s: { maxzoom: number },
  gt: GeoTransform = GT,
  toLngLat: (px: number, ln: number, g: GeoTransform) => [number, number] = lngLatOfPixel,
  [width, height] = [W, H],
) => {
  for (const [q, px, ln] of quarterCentres(width, height))
    expectColour(await colourAt(id, s.maxzoom, ...toLngLat(px, ln, gt)), QUARTER_COLOURS[q])
}

describe('geospatial PDF sheets', () => {
  it.each([
    ['ISO 32000, JPEG', ['GEO_ENCODING=ISO32000', 'COMPRESS=JPEG']],
    ['ISO 32000, deflate with the TIFF predictor', ['GEO_ENCODING=ISO32000', 'COMPRESS=DEFLATE', 'PREDICTOR=2']],
    ['OGC best practice, JPEG', ['GEO_ENCODING=OGC_BP', 'COMPRESS=JPEG']],
    ['OGC best practice, deflate', ['GEO_ENCODING=OGC_BP', 'COMPRESS=DEFLATE']],
  ])(
    'imports a VN-2000 sheet exported as a geospatial PDF (%s) with its colours where the map says they are',
    async (label, options) => {
      const stem = `pdf-${label.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}`
      const file = await geoPdf(dir, stem, W, H, GT, MERIDIAN, options)
      const lines: string[] = []
      const s = await importOverlay(db, base(stem, file, { log: (l) => lines.push(l) }))
      expect(s).toMatchObject({ georef: 'geospatial-pdf', crs: 'vn2000:107.75', width: W, height: H, maxzoom: 17 })
      expect(Math.max(...s.residuals)).toBeLessThan(0.01)
      expect(lines).toContain(
        `Ảnh trong PDF: ${W} × ${H} px, tọa độ theo ${label.startsWith('ISO') ? 'ISO 32000' : 'OGC'}`,
      )
      await checkSheet(s.id, s)
    },
  )

  it('reads a PDF 1.5 layout: objects in an object stream, a cross-reference stream, and an image with PNG predictors', async () => {
    const gdalMade = await geoPdf(dir, 'pdf15-src', W, H, GT, MERIDIAN, ['GEO_ENCODING=ISO32000', 'COMPRESS=DEFLATE'])
    // Adaptive filtering makes the PNG use the Sub, Up, Average and Paeth filters, not only None.
    const png = await sharp(await quarterImage(W, H))
      .png({ adaptiveFiltering: true })
      .toBuffer()
    const file = join(dir, 'pdf15.pdf')
    writeFileSync(file, restructurePdf(readFileSync(gdalMade), { png, width: W, height: H }))
    const s = await importOverlay(db, base('pdf15', file))
    expect(s.georef).toBe('geospatial-pdf')
    await checkSheet(s.id, s)
  })

  it('reads a scan of over 1 MB from the file rather than holding it in memory, with its colours in place', async () => {
    const [w, h] = [768, 512]
    const file = await geoPdf(dir, 'pdf-large', w, h, GT, MERIDIAN, ['GEO_ENCODING=ISO32000', 'COMPRESS=NONE'])
    expect(statSync(file).size).toBeGreaterThan(SET_ASIDE_BYTES)
    expect((await PdfDocument.open(file)).setAside).toBe(1)
    const s = await importOverlay(db, base('pdf-large', file))
    expect(s).toMatchObject({ georef: 'geospatial-pdf', width: w, height: h })
    await checkSheet(s.id, s, GT, lngLatOfPixel, [w, h])
  })

  it('decodes a deflated scan of over 1 MB, streamed from the file, to exactly its samples', async () => {
    const [w, h] = [640, 640]
    const raw = randomBytes(w * h * 3)
    const doc = await PDFDocument.create()
    const image = await doc.embedPng(
      await sharp(raw, { raw: { width: w, height: h, channels: 3 } })
        .png()
        .toBuffer(),
    )
    doc.addPage([w, h]).drawImage(image, { x: 0, y: 0, width: w, height: h })
    const file = join(dir, 'pdf-lib-noise.pdf')
    writeFileSync(file, await doc.save())
    expect((await PdfDocument.open(file)).setAside).toBe(1)
    const sheet = await readGeospatialPdf(file, join(dir, 'pdf-lib-noise'), () => {})
    const ppm = readFileSync(sheet.image)
    expect(ppm.subarray(0, 15).toString('latin1')).toBe(`P6\n${w} ${h}\n255\n`)
    expect(ppm.subarray(15).equals(raw)).toBe(true)
  })

  it('reads a PDF whose cross-reference offsets are off (bytes added in front) by finding its objects', async () => {
    const good = await geoPdf(dir, 'shifted-src', W, H, GT, MERIDIAN, ['GEO_ENCODING=ISO32000', 'COMPRESS=JPEG'])
    const file = join(dir, 'shifted.pdf')
    writeFileSync(file, Buffer.concat([Buffer.from('Content-Type: application/pdf\r\n\r\n'), readFileSync(good)]))
    const s = await importOverlay(db, base('shifted', file))
    await checkSheet(s.id, s)
  })

  it('places a PDF in WGS 84 / UTM 49N, a CRS given to GDAL as the PDF writes it', async () => {
    const utm = '+proj=utm +zone=49 +datum=WGS84 +units=m +no_defs'
    const [x0, y0] = proj4('EPSG:4326', utm).forward([108.2, 16.05]).map(Math.round) as [number, number]
    const gt: GeoTransform = [x0, 1, 0, y0, 0, -1]
    const file = await geoPdf(dir, 'pdf-utm', W, H, gt, 'EPSG:32649', ['GEO_ENCODING=ISO32000', 'COMPRESS=DEFLATE'])
    const s = await importOverlay(db, base('pdf-utm', file))
    expect(s).toMatchObject({ georef: 'geospatial-pdf', crs: 'theo tệp' })
    const toLngLat = (px: number, ln: number, g: GeoTransform) =>
      proj4(utm, 'EPSG:4326').forward([g[0] + g[1] * px, g[3] + g[5] * ln]) as [number, number]
    await checkSheet(s.id, s, gt, toLngLat)
  })

  it('places a PDF without georeferencing by --gcp on its image, through the same control-point fit', async () => {
    const file = await geoPdf(dir, 'pdf-bare', W, H, GT, MERIDIAN, ['GEO_ENCODING=NONE', 'COMPRESS=JPEG'])
    const gcps = [
      [8, 8],
      [W - 8, 8],
      [8, H - 8],
      [W - 8, H - 8],
    ].map(([px, ln]) => ({ pixel: px!, line: ln!, a: GT[3] + GT[5] * ln!, b: GT[0] + GT[1] * px! }))
    const s = await importOverlay(db, base('pdf-bare', file, { gcps, crs: VN2000 }))
    expect(s).toMatchObject({ georef: 'gcp', crs: 'vn2000:107.75' })
    expect(s.residuals).toHaveLength(4)
    await checkSheet(s.id, s)
  })
})

describe('geospatial PDFs written by other tools than GDAL (fixtures/pdf/)', () => {
  const fixture = (name: string) => join(import.meta.dirname, 'fixtures', 'pdf', name)

  it.each([
    [
      'pdf-lib-iso32000.pdf',
      'ISO 32000',
      'pdf-lib: a JPEG, /VP with /Measure /GEO, object streams, a cross-reference stream',
    ],
    ['pdf-lib-lgidict-update.pdf', 'OGC', 'pdf-lib: a Flate image, then an incremental update that adds /LGIDict'],
    ['qpdf-object-streams.pdf', 'ISO 32000', 'a GDAL sheet rewritten by qpdf into object streams'],
  ])('imports %s (georeferenced as %s; %s) with its colours where the map says they are', async (name, encoding) => {
    const id = name.replace('.pdf', '')
    const lines: string[] = []
    const s = await importOverlay(db, base(id, fixture(name), { log: (l) => lines.push(l) }))
    expect(s).toMatchObject({ georef: 'geospatial-pdf', crs: 'vn2000:107.75', width: W, height: H })
    expect(Math.max(...s.residuals)).toBeLessThan(0.01)
    expect(lines).toContain(`Ảnh trong PDF: ${W} × ${H} px, tọa độ theo ${encoding}`)
    await checkSheet(s.id, s)
  })

  it('places a sheet rewritten by cairo (pdftocairo), which drops the georeferencing, by --gcp on its image', async () => {
    const refused = await importOverlay(db, base('cairo-bare', fixture('cairo.pdf'))).catch((e: unknown) => e)
    expect((refused as Error).message).toMatch(/^PDF chưa có tọa độ/)
    const gcps = [
      [8, 8],
      [W - 8, 8],
      [8, H - 8],
      [W - 8, H - 8],
    ].map(([px, ln]) => ({ pixel: px!, line: ln!, a: GT[3] + GT[5] * ln!, b: GT[0] + GT[1] * px! }))
    const s = await importOverlay(db, base('cairo', fixture('cairo.pdf'), { gcps, crs: VN2000 }))
    expect(s).toMatchObject({ georef: 'gcp', width: W, height: H })
    await checkSheet(s.id, s)
  })
})

describe('raster overlays refuse bad input with one clear message and store nothing', () => {
  const refuse = async (opts: OverlayImportOptions, message: RegExp) => {
    const err = await importOverlay(db, opts).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ImportError)
    expect((err as Error).message).toMatch(message)
    expect((err as Error).message).not.toContain('\n')
    expect(await stored(opts.id!)).toBe(0)
  }

  it('a scan without georeferencing and without control points', async () => {
    const file = join(dir, 'bare.png')
    writeFileSync(file, await quarterImage(64, 64))
    await refuse(base('bare', file), /chưa có tọa độ.*--gcp/)
  })

  it('a world file that puts the sheet outside Việt Nam', async () => {
    const file = await pngWithWorldFile(dir, 'paris', 64, 64, [2.35, 0.0001, 0, 48.85, 0, -0.0001])
    await refuse(base('paris', file, { crs: parseOverlayCrs('EPSG:4326')! }), /ngoài Việt Nam/)
  })

  it('a corrupt TIFF', async () => {
    const good = await geoTiff(dir, 'whole', 300, 300, GT, MERIDIAN)
    const bytes = readFileSync(good)
    const file = join(dir, 'broken.tif')
    writeFileSync(file, bytes.subarray(0, Math.floor(bytes.length * 0.5)))
    await refuse(base('broken', file), /hỏng/)
  })

  it('a PDF without georeferencing and without control points', async () => {
    const file = await geoPdf(dir, 'pdf-nogeo', 64, 48, GT, MERIDIAN, ['GEO_ENCODING=NONE'])
    await refuse(base('pdf-nogeo', file), /^PDF chưa có tọa độ .*--gcp/)
  })

  it('a PDF with no raster image (a plan drawn as vectors)', async () => {
    await refuse(base('pdf-vector', await vectorPdf(dir, 'pdf-vector')), /không có ảnh quét \(bản vẽ vector\).*GeoTIFF/)
  })

  it('a PDF whose scan is cut into image tiles', async () => {
    const file = await geoPdf(dir, 'pdf-tiled', W, H, GT, MERIDIAN, ['TILED=YES', 'BLOCKXSIZE=256', 'BLOCKYSIZE=256'])
    await refuse(base('pdf-tiled', file), /vẽ tờ bản đồ thành 4 ảnh ghép lại .*GeoTIFF/)
  })

  it('an encrypted PDF (qpdf, empty user password), named as such', async () => {
    const file = join(import.meta.dirname, 'fixtures', 'pdf', 'qpdf-encrypted.pdf')
    await refuse(base('pdf-encrypted', file), /^Tệp PDF hỏng, không đọc được qpdf-encrypted\.pdf: PDF được mã hóa/)
  })

  it('a truncated PDF', async () => {
    const whole = readFileSync(
      await geoPdf(dir, 'pdf-whole', W, H, GT, MERIDIAN, ['GEO_ENCODING=ISO32000', 'COMPRESS=JPEG']),
    )
    const file = join(dir, 'pdf-cut.pdf')
    writeFileSync(file, whole.subarray(0, Math.floor(whole.length * 0.6)))
    await refuse(base('pdf-cut', file), /^Tệp PDF hỏng, không đọc được pdf-cut\.pdf: /)
  })

  it('not enough disk space for the import', async () => {
    const file = await pngWithWorldFile(dir, 'disk', W, H, GT)
    await refuse(base('disk', file, { crs: VN2000, freeBytes: () => 50_000 }), /Không đủ chỗ trên đĩa/)
  })

  it('not enough disk space for the image taken out of a PDF', async () => {
    const file = await geoPdf(dir, 'pdf-disk', W, H, GT, MERIDIAN, ['COMPRESS=DEFLATE'])
    await refuse(base('pdf-disk', file, { freeBytes: () => 50_000 }), /^Không đủ chỗ trên đĩa: cần khoảng 1 MB/)
  })

  it('the command line exits 1 with one line', async () => {
    const file = join(dir, 'bare-cli.png')
    writeFileSync(file, await quarterImage(64, 64))
    const out = spawnSync(
      process.execPath,
      [
        'server/src/cli/import.ts',
        file,
        '--kind',
        'overlay',
        '--name',
        'Tờ quét',
        '--plan-level',
        'QHPK',
        '--decision-no',
        '1/QĐ',
        '--approved-at',
        '2024-01-01',
      ],
      { encoding: 'utf8', env: { ...process.env, DATA_DIR: join(tempDir(), 'data'), DATABASE_URL: '' } },
    )
    expect(out.status).toBe(1)
    expect(out.stderr.trim().split('\n')).toHaveLength(1)
    expect(out.stderr).toMatch(/^Không nhập được, cơ sở dữ liệu không thay đổi: Ảnh chưa có tọa độ/)
  }, 60_000)

  it('the command line exits 1 with one line for each bad PDF', async () => {
    const whole = readFileSync(await geoPdf(dir, 'cli-whole', W, H, GT, MERIDIAN, ['COMPRESS=JPEG']))
    writeFileSync(join(dir, 'cli-cut.pdf'), whole.subarray(0, Math.floor(whole.length * 0.6)))
    const cases = [
      [await geoPdf(dir, 'cli-nogeo', 64, 48, GT, MERIDIAN, ['GEO_ENCODING=NONE']), /PDF chưa có tọa độ/],
      [await vectorPdf(dir, 'cli-vector'), /không có ảnh quét/],
      [join(dir, 'cli-cut.pdf'), /Tệp PDF hỏng/],
    ] as const
    for (const [file, message] of cases) {
      const out = spawnSync(
        process.execPath,
        [
          'server/src/cli/import.ts',
          file,
          '--kind',
          'overlay',
          '--name',
          'Tờ PDF',
          '--plan-level',
          'QHPK',
          '--decision-no',
          '1/QĐ',
          '--approved-at',
          '2024-01-01',
        ],
        { encoding: 'utf8', env: { ...process.env, DATA_DIR: join(tempDir(), 'data'), DATABASE_URL: '' } },
      )
      expect(out.status, file).toBe(1)
      expect(out.stderr.trim().split('\n'), out.stderr).toHaveLength(1)
      expect(out.stderr).toMatch(/^Không nhập được, cơ sở dữ liệu không thay đổi: /)
      expect(out.stderr).toMatch(message)
    }
  }, 120_000)
})
