import { randomBytes } from 'node:crypto'
import { existsSync, statfsSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, extname, resolve } from 'node:path'
import type { PlanLevel } from '#core/planning/plan-levels.ts'
import { foldVietnamese } from '#core/text/fold.ts'
import type { Database } from '../db/database.ts'
import { loadGdal, type Gdal, type GdalDataset } from '../gdal/gdal.ts'
import { ImportError } from '../import/errors.ts'
import { isoDate } from '../import/values.ts'
import { applyGeoTransform, type GeoTransform } from './gcp.ts'
import { isPdf, readGeospatialPdf, type PdfSheet } from './geospatial-pdf.ts'
import { checkResiduals, georefFromGcps, type OverlayCrs, type TypedGcp } from './georef.ts'
import { resolutionAt, WORLD, type Box } from './mercator.ts'
import { pdfControlPoints } from './pdf/pdf-crs.ts'
import { openScratchDir } from './scratch-dir.ts'
import { countTiles, gdalError, renderPyramid } from './tiler.ts'
import { VIETNAM_BOX } from '#core/geo/box.ts'

export type OverlayImportOptions = {
  file: string
  name: string
  planLevel: PlanLevel
  decisionNo: string
  /** YYYY-MM-DD. */
  approvedAt: string
  /** Re-importing with the same id replaces that overlay; defaults to `overlay-<file name>`. */
  id?: string | undefined
  source?: string | undefined
  crs?: OverlayCrs | undefined
  gcps?: TypedGcp[] | undefined
  /** Where the intermediate raster goes (default: the system's temporary directory). */
  scratchParent?: string | undefined
  /** Directory of the embedded database, checked for room for the tiles; absent on PostgreSQL. */
  dataDir?: string | undefined
  /** Free bytes on the file system holding `path` (tests replace it). */
  freeBytes?: ((path: string) => number) | undefined
  /** Lines for the person importing: residuals, notes, progress. */
  log?: ((line: string) => void) | undefined
}

export type OverlaySummary = {
  id: string
  replaced: boolean
  georef: 'geotiff' | 'world-file' | 'gcp' | 'geospatial-pdf'
  crs: string
  width: number
  height: number
  minzoom: number
  maxzoom: number
  bounds: [number, number, number, number]
  tiles: number
  bytes: number
  residuals: number[]
  seconds: number
  /** Largest resident memory of the process during the import, MB. */
  peakRssMb: number
}

type RasterInfo = {
  size?: [number, number]
  geoTransform?: GeoTransform
  coordinateSystem?: { wkt?: string }
  files?: string[]
  bands?: { type?: string; colorInterpretation?: string; colorTable?: unknown }[]
  gcps?: unknown
}

const WORLD_FILE = /\.(pgw|jgw|tfw|wld|pngw|jpgw|tifw)$/i
const IDENTITY: GeoTransform = [0, 1, 0, 0, 0, 1]

export function defaultOverlayId(file: string): string {
  const stem = foldVietnamese(basename(file, extname(file)))
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
  return `overlay-${stem || 'ban-do'}`.slice(0, 80)
}
export const overlayIdPattern = /^[A-Za-z0-9][A-Za-z0-9._-]{0,79}$/

const defaultFreeBytes = (path: string) => {
  const s = statfsSync(path)
  return s.bavail * s.bsize
}

type Placement = {
  how: OverlaySummary['georef']
  srs: string
  label: string
  transform: GeoTransform
  gcpArgs: string[]
  residuals: number[]
}

/**
 * Placement by control points, typed or read from a geospatial PDF: fitted, each residual logged, and
 * refused over the threshold, the same way for both.
 */
function gcpPlacement(
  how: 'gcp' | 'geospatial-pdf',
  gcps: TypedGcp[],
  crs: OverlayCrs | undefined,
  log: OverlayImportOptions['log'],
): Placement {
  const g = georefFromGcps(gcps, crs)
  for (const note of g.notes) log?.(note)
  g.residuals.forEach((r, i) => {
    const p = g.points[i]!
    log?.(`Điểm khống chế ${i + 1} (cột ${p.pixel}, dòng ${p.line}): sai số ${r.toFixed(2)} m`)
  })
  if (how === 'gcp' && g.points.length === 3)
    log?.('Với đúng 3 điểm, sai số luôn bằng 0: thêm điểm thứ 4 để kiểm tra độ chính xác')
  checkResiduals(g.residuals)
  const gcpArgs = g.points.flatMap((p) => ['-gcp', String(p.pixel), String(p.line), String(p.x), String(p.y)])
  return { how, srs: g.srs, label: g.label, transform: g.transform, gcpArgs, residuals: g.residuals }
}

/** How the scan is placed on the ground: control points typed, a geospatial PDF's own, its GeoTIFF georeferencing or a world file. */
async function placementOf(
  gdal: Gdal,
  info: RasterInfo,
  opts: OverlayImportOptions,
  pdf: PdfSheet | undefined,
): Promise<Placement> {
  if (opts.gcps && opts.gcps.length > 0) return gcpPlacement('gcp', opts.gcps, opts.crs, opts.log)
  if (pdf) {
    if (!pdf.georef) {
      throw new ImportError(
        'PDF chưa có tọa độ (không có /VP … /Measure /GEO hay /LGIDict): thêm ít nhất 3 điểm khống chế --gcp cột,dòng,X,Y trên ảnh trong PDF và --crs',
      )
    }
    if (opts.crs) throw new ImportError('PDF đã có hệ tọa độ riêng; --crs chỉ dùng kèm các điểm khống chế --gcp')
    const [width, height] = info.size ?? [0, 0]
    const { crs, gcps } = await pdfControlPoints(gdal, pdf.georef, width, height)
    return gcpPlacement('geospatial-pdf', gcps, crs, opts.log)
  }
  const gt = info.geoTransform
  const placed = gt && gt.some((v, i) => v !== IDENTITY[i])
  if (!placed) {
    throw new ImportError(
      'Ảnh chưa có tọa độ (không phải GeoTIFF, không có world file .pgw/.jgw/.tfw bên cạnh): thêm world file và --crs, hoặc ít nhất 3 điểm khống chế --gcp cột,dòng,X,Y',
    )
  }
  const how = (info.files ?? []).some((f) => WORLD_FILE.test(f)) ? 'world-file' : 'geotiff'
  const wkt = info.coordinateSystem?.wkt?.trim()
  const srs = opts.crs?.srs ?? wkt
  if (!srs)
    throw new ImportError(
      'Ảnh có world file nhưng không rõ hệ tọa độ: thêm --crs vn2000:<kinh tuyến trục> hoặc --crs EPSG:4326',
    )
  return { how, srs, label: opts.crs?.label ?? (wkt ? 'theo tệp' : ''), transform: gt, gcpArgs: [], residuals: [] }
}

/** The sheet's outline (edges densified, as they bend a little in another projection) in WGS84 and Web Mercator. */
async function footprintOf(gdal: Gdal, p: Placement, width: number, height: number) {
  const steps = 8
  const ring: [number, number][] = []
  const edge = (from: [number, number], to: [number, number]) => {
    for (let i = 0; i < steps; i++)
      ring.push([from[0] + ((to[0] - from[0]) * i) / steps, from[1] + ((to[1] - from[1]) * i) / steps])
  }
  edge([0, 0], [width, 0])
  edge([width, 0], [width, height])
  edge([width, height], [0, height])
  edge([0, height], [0, 0])
  const native = ring.map(([px, ln]) => applyGeoTransform(p.transform, px, ln))
  const run = (target: string) =>
    gdal.gdaltransform(native, ['-s_srs', p.srs, '-t_srs', target, '-output_xy']).catch((err: unknown) => {
      throw new ImportError(`Không đổi được hệ tọa độ của ảnh (${gdalError(err).message}); kiểm tra --crs`)
    })
  const lngLat = (await run('EPSG:4326')).map((c) => [c[0]!, c[1]!] as [number, number])
  const merc = (await run('EPSG:3857')).map((c) => [c[0]!, c[1]!] as [number, number])
  return { lngLat, merc }
}

function boxOf(points: [number, number][]): Box {
  const xs = points.map((p) => p[0])
  const ys = points.map((p) => p[1])
  return { minX: Math.min(...xs), minY: Math.min(...ys), maxX: Math.max(...xs), maxY: Math.max(...ys) }
}

function ringArea(points: [number, number][]): number {
  let a = 0
  for (let i = 0; i < points.length; i++) {
    const [x0, y0] = points[i]!
    const [x1, y1] = points[(i + 1) % points.length]!
    a += x0 * y1 - x1 * y0
  }
  return Math.abs(a) / 2
}

/**
 * Zooms: the deepest is the one whose pixel is nearest the scan's own (no detail lost, none invented);
 * the shallowest shows the whole sheet in about one tile.
 */
export function zoomsFor(
  mercBox: Box,
  mercArea: number,
  width: number,
  height: number,
): { minzoom: number; maxzoom: number } {
  const res = Math.sqrt(mercArea / (width * height))
  const maxzoom = Math.max(0, Math.min(22, Math.round(Math.log2(resolutionAt(0) / res))))
  const span = Math.max(mercBox.maxX - mercBox.minX, mercBox.maxY - mercBox.minY)
  const minzoom = Math.max(0, Math.min(maxzoom, Math.floor(Math.log2(WORLD / span))))
  return { minzoom, maxzoom }
}

function checkOptions(opts: OverlayImportOptions): string {
  if (!opts.name.trim()) throw new ImportError('Thiếu tên bản đồ (--name)')
  if (!opts.decisionNo.trim()) throw new ImportError('Thiếu số quyết định (--decision-no)')
  if (!isoDate(opts.approvedAt))
    throw new ImportError(`Ngày phê duyệt không hợp lệ: ${JSON.stringify(opts.approvedAt)} (cần YYYY-MM-DD)`)
  const id = opts.id ?? defaultOverlayId(opts.file)
  if (!overlayIdPattern.test(id))
    throw new ImportError(`Mã bản đồ không hợp lệ: ${JSON.stringify(id)} (chữ, số, . _ -)`)
  if (!existsSync(opts.file) || !statSync(opts.file).isFile()) throw new ImportError(`Không thấy tệp ${opts.file}`)
  return id
}

/**
 * Room for the intermediate raster (compressed, at most half the uncompressed pixels as a pessimistic
 * guess for scans) and for the tiles (≈1.5 bytes a pixel at the deepest zoom, a third more for the
 * shallower ones), checked before anything is written.
 */
function checkDisk(
  opts: OverlayImportOptions,
  scratchParent: string,
  width: number,
  height: number,
  bands: number,
  tilePixels: number,
): void {
  const free = opts.freeBytes ?? defaultFreeBytes
  const scratchNeed = width * height * bands * 0.5
  const tileNeed = tilePixels * 1.5 * 1.34
  const scratchFree = free(scratchParent)
  const need = opts.dataDir ? scratchNeed + tileNeed : scratchNeed
  const dataFree = opts.dataDir
    ? free(existsSync(opts.dataDir) ? opts.dataDir : resolve(opts.dataDir, '..'))
    : Number.POSITIVE_INFINITY
  if (scratchFree < (opts.dataDir ? scratchNeed : need) || dataFree < tileNeed)
    throw noRoom(need, Math.min(scratchFree, dataFree))
}

function noRoom(need: number, free: number): ImportError {
  const mb = (b: number) => Math.ceil(b / 1e6).toLocaleString('vi-VN')
  return new ImportError(`Không đủ chỗ trên đĩa: cần khoảng ${mb(need)} MB, còn ${mb(free)} MB`)
}

/** Opens a raster; `shown` is the file named in a refusal (the PDF, not the image taken out of it). */
async function openRaster(gdal: Gdal, file: string, shown = file): Promise<GdalDataset> {
  const opened = await gdal.open(resolve(file)).catch(() => ({ datasets: [] as GdalDataset[] }))
  const ds = opened.datasets[0]
  if (!ds || ds.type !== 'raster') {
    throw new ImportError(
      `Không đọc được ${basename(shown)} như một ảnh (GeoTIFF, PNG, JPEG, PDF): tệp hỏng hoặc không phải ảnh`,
    )
  }
  return ds
}

export type PreparedOverlay = {
  /** Renders the tiles and stores the overlay in one transaction. */
  store(db: Database): Promise<OverlaySummary>
  /** Frees the GDAL dataset and the scratch directory; call once, whatever happened. */
  close(): Promise<void>
}

const enospc = (err: unknown) => {
  if ((err as NodeJS.ErrnoException).code === 'ENOSPC')
    return new ImportError('Hết chỗ trên đĩa khi nhập; cơ sở dữ liệu không thay đổi')
  return err
}

/**
 * Everything that can be checked before the database is touched: the file reads as an image, it is
 * placed (georeferencing, world file or control points within the residual threshold), it lies in
 * Việt Nam, the disk has room, and every pixel decodes (one pass into a tiled GeoTIFF on disk, which
 * also gives the block warps random access).
 */
export async function prepareOverlay(opts: OverlayImportOptions): Promise<PreparedOverlay> {
  const started = performance.now()
  const id = checkOptions(opts)
  const gdal = await loadGdal()
  const scratchParent = opts.scratchParent ?? tmpdir()
  const scratch = openScratchDir(gdal, scratchParent)
  let source: GdalDataset | undefined
  const close = async () => {
    if (source) await gdal.close(source).catch(() => {})
    source = undefined
    scratch.close()
  }
  try {
    // A geospatial PDF is read here (GDAL's WebAssembly build cannot), its image handed to GDAL as a file.
    const ensureRoom = (bytes: number) => {
      const free = (opts.freeBytes ?? defaultFreeBytes)(scratchParent)
      if (free < bytes) throw noRoom(bytes, free)
    }
    const pdf = isPdf(opts.file) ? await readGeospatialPdf(opts.file, scratch.real('pdf-image'), ensureRoom) : undefined
    const original = await openRaster(gdal, pdf?.image ?? opts.file, opts.file)
    const info = original.info as RasterInfo
    const [width, height] = info.size ?? [0, 0]
    const bands = info.bands ?? []
    if (width <= 0 || height <= 0 || bands.length === 0)
      throw new ImportError(`${basename(opts.file)} không có dữ liệu ảnh`)
    if (bands.some((b) => b.type !== 'Byte'))
      throw new ImportError('Chỉ nhận ảnh 8 bit mỗi kênh (ảnh quét màu hoặc xám)')
    const placement = await placementOf(gdal, info, opts, pdf)
    // Said once the sheet is placed, so that a refusal stays the one line printed.
    for (const note of pdf?.notes ?? []) opts.log?.(note)
    const outline = await footprintOf(gdal, placement, width, height)
    const [w, s, e, n] = [VIETNAM_BOX.west, VIETNAM_BOX.south, VIETNAM_BOX.east, VIETNAM_BOX.north]
    if (outline.lngLat.some(([lng, lat]) => !(lng >= w && lng <= e && lat >= s && lat <= n))) {
      const c = outline.lngLat[0]!
      throw new ImportError(
        `Tờ bản đồ nằm ngoài Việt Nam (góc trên trái ở ${c[1].toFixed(4)}, ${c[0].toFixed(4)}): kiểm tra world file và --crs (VN-2000 cần đúng kinh tuyến trục)`,
      )
    }
    const mercBox = boxOf(outline.merc)
    const mercArea = ringArea(outline.merc)
    const { minzoom, maxzoom } = zoomsFor(mercBox, mercArea, width, height)
    checkDisk(opts, scratchParent, width, height, Math.max(bands.length, 3), mercArea / resolutionAt(maxzoom) ** 2)

    const palette = bands.length === 1 && bands[0]!.colorTable !== undefined
    await gdal
      .gdal_translate(
        original,
        [
          '-of',
          'GTiff',
          '-co',
          'TILED=YES',
          '-co',
          'COMPRESS=DEFLATE',
          '-co',
          'BIGTIFF=IF_SAFER',
          '-a_srs',
          placement.srs,
          ...placement.gcpArgs,
          ...(palette ? ['-expand', 'rgba'] : []),
          '--config',
          'GDAL_CACHEMAX',
          '64',
        ],
        scratch.gdalName('source'),
      )
      .catch((err: unknown) => {
        throw new ImportError(`Tệp ảnh hỏng, không đọc hết được ${basename(opts.file)}: ${gdalError(err).message}`)
      })
    await gdal.close(original)
    source = await openRaster(gdal, scratch.real('source.tif'))

    const [lngs, lats] = [outline.lngLat.map((p) => p[0]), outline.lngLat.map((p) => p[1])]
    const bounds: [number, number, number, number] = [
      Math.min(...lngs),
      Math.min(...lats),
      Math.max(...lngs),
      Math.max(...lats),
    ]
    const footprint = JSON.stringify({ type: 'Polygon', coordinates: [[...outline.lngLat, outline.lngLat[0]!]] })
    const total = countTiles(mercBox, minzoom, maxzoom)
    let lastLog = performance.now()
    const onTiles = (done: number) => {
      if (performance.now() - lastLog < 5000) return
      lastLog = performance.now()
      opts.log?.(`Đang cắt ô: ${done.toLocaleString('vi-VN')} / tối đa ${total.toLocaleString('vi-VN')}`)
    }
    const input = {
      gdal,
      source,
      byGcps: placement.gcpArgs.length > 0,
      scratch,
      overlayId: id,
      box: mercBox,
      minzoom,
      maxzoom,
      onTiles,
    }
    const row = [
      id,
      opts.name.trim(),
      opts.planLevel,
      opts.decisionNo.trim(),
      opts.approvedAt,
      opts.source?.trim() || basename(opts.file),
      placement.how,
      placement.label,
      minzoom,
      maxzoom,
      footprint,
      ...bounds,
    ]

    const store = async (db: Database): Promise<OverlaySummary> => {
      const { replaced, tiles, bytes } = await db
        .transaction(async (tx) => {
          const gone = await tx.query('delete from raster_overlays where id = $1 returning id', [id])
          await tx.query(
            `insert into raster_overlays (id, name, plan_level, decision_no, approved_at, source, georef, crs, minzoom, maxzoom, footprint, bounds, revision, tile_count, bytes)
             values ($1, $2, $3, $4, $5::date, $6, $7, $8, $9, $10, ST_SetSRID(ST_GeomFromGeoJSON($11), 4326), ST_MakeEnvelope($12, $13, $14, $15, 4326), $16, 0, 0)`,
            [...row, randomBytes(6).toString('hex')],
          )
          const made = await renderPyramid(tx, input).catch((err: unknown) => {
            const known = enospc(err)
            throw known instanceof ImportError
              ? known
              : new ImportError(`Không cắt được ô bản đồ: ${gdalError(err).message}`)
          })
          if (made.tiles === 0) throw new ImportError('Ảnh trong suốt hoàn toàn, không có gì để hiển thị')
          await tx.query('update raster_overlays set tile_count = $2, bytes = $3 where id = $1', [
            id,
            made.tiles,
            made.bytes,
          ])
          return { replaced: gone.length > 0, ...made }
        })
        .catch((err: unknown) => {
          throw enospc(err)
        })
      return {
        id,
        replaced,
        georef: placement.how,
        crs: placement.label,
        width,
        height,
        minzoom,
        maxzoom,
        bounds,
        tiles,
        bytes,
        residuals: placement.residuals,
        seconds: (performance.now() - started) / 1000,
        peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
      }
    }
    return { store, close }
  } catch (err) {
    await close()
    throw enospc(err)
  }
}

/**
 * Imports one scanned plan as a raster overlay, all or nothing: the overlay row and every tile commit
 * together, so a failure (corrupt data half-way, a full disk) leaves the database as it was.
 */
export async function importOverlay(db: Database, opts: OverlayImportOptions): Promise<OverlaySummary> {
  const prepared = await prepareOverlay(opts)
  try {
    return await prepared.store(db)
  } finally {
    await prepared.close()
  }
}
