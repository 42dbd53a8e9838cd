import { createHash } from 'node:crypto'
import { DEMO_MARKET, hiddenPricePerM2, type MarketRules } from './hedonic.ts'
import { canalNames, mainRoadNames, marketNames, nth, parkNames, schoolNames, streetNames, wardNames } from './names.ts'
import { createRng, hashSeed, type Rng } from './prng.ts'
import { buildableFar } from '#core/planning/plan-figures.ts'

/**
 * The simulated ward(s): a street grid near Bình Thạnh / Gia Định, TP.HCM. Everything is laid out in
 * metres east/north of an origin and turned into WGS84 at the end, so widths, frontages and areas are
 * exact by construction.
 *
 * The area is built from tiles of 10 × 16 blocks; each tile is one ward of at least 20,000 parcels, so
 * `--parcels N` adds tiles (in rows, filling a near-square) and memory stays at one tile's worth.
 */
export const DEMO = {
  datasetId: 'demo',
  name: 'Phường mô phỏng — Dữ liệu mô phỏng',
  source: 'Dữ liệu mô phỏng',
  province: 'Thành phố Hồ Chí Minh',
  dataDate: '2026-06-30',
  crs: 'vn2000:105.75',
  priceSource: 'Bảng giá đất TP.HCM 2026 (mô phỏng)',
  priceYear: 2026,
  defaultSeed: 20260630,
  defaultParcels: 20_000,
  comparablesPerTile: 3000,
} as const

export const PARCELS_PER_TILE = 20_000
const C = 10 // blocks per tile, west–east
const R = 16 // blocks per tile, south–north
const PX = 200 // street centre-line spacing west–east, m
const PY = 95 // street centre-line spacing south–north, m
const MAIN_X = 5 // every 5th north–south line is a main road
const MAIN_Y = 8 // every 8th west–east line is a main road
const CANAL_ROW = 11
const QHCT_COLS = 6 // the detailed 1/500 plan covers the west 6 × 10 blocks of each ward
const QHCT_ROWS = 10
const ORIGIN = { lat: 10.7905, lng: 106.6905 }
const CITY_CENTRE = { lat: 10.7769, lng: 106.7009 }

const phi = (ORIGIN.lat * Math.PI) / 180
const M_PER_DEG_LAT = 111132.92 - 559.82 * Math.cos(2 * phi) + 1.175 * Math.cos(4 * phi)
const M_PER_DEG_LNG = 111412.84 * Math.cos(phi) - 93.5 * Math.cos(3 * phi) + 0.118 * Math.cos(5 * phi)

export function toLngLat(x: number, y: number): [number, number] {
  return [ORIGIN.lng + x / M_PER_DEG_LNG, ORIGIN.lat + y / M_PER_DEG_LAT]
}
const pt = (x: number, y: number) =>
  toLngLat(x, y)
    .map((v) => v.toFixed(7))
    .join(' ')
const ring = (x0: number, y0: number, x1: number, y1: number) =>
  `(${pt(x0, y0)},${pt(x1, y0)},${pt(x1, y1)},${pt(x0, y1)},${pt(x0, y0)})`
export const rectWkt = (x0: number, y0: number, x1: number, y1: number) => `MULTIPOLYGON((${ring(x0, y0, x1, y1)}))`
const polygonWkt = (x0: number, y0: number, x1: number, y1: number) => `POLYGON(${ring(x0, y0, x1, y1)})`
const lineWkt = (coords: [number, number][]) => `LINESTRING(${coords.map(([x, y]) => pt(x, y)).join(',')})`
const pointWkt = (x: number, y: number) => `POINT(${pt(x, y)})`
const round1 = (v: number) => Math.round(v * 10) / 10
const round2 = (v: number) => Math.round(v * 100) / 100

export type StreetRow = {
  key: string
  name: string
  class: 'main' | 'street' | 'alley'
  width_m: number
  ward: string
  wkt: string
}
export type PriceRow = {
  street_key: string
  street_name: string
  segment_from: string
  segment_to: string
  vt1: number
  vt2: number
  vt3: number
  vt4: number
}
export type ParcelRow = {
  key: string
  ward: string
  sheet_no: number
  parcel_no: number
  area_m2: number
  address: string
  street_key: string | null
  frontage_m: number | null
  alley_width_m: number | null
  distance_to_street_m: number | null
  land_use: { code: string; area_m2: number }[]
  wkt: string
}
export type BaseFeatureRow = {
  kind: 'block' | 'water' | 'green' | 'landmark' | 'ward_boundary'
  name: string
  subkind: string
  wkt: string
}
/** The demo's plans: the zoning plan of 2017, the one of 2023 that replaced it, and the detailed plan of 2025. */
export type PlanKey = 'qhpk' | 'qhct' | 'qhpk2017'
export type ZoneRow = {
  plan: PlanKey
  block_code: string
  land_use_code: string
  max_density_pct: number | null
  max_floors: number | null
  max_far: number | null
  wkt: string
}
export type ReserveRow = { plan: PlanKey; road_name: string; width_m: number; wkt: string }
export type ComparableRow = {
  wkt: string
  observed_at: string
  price_vnd: number
  area_m2: number
  frontage_m: number
  alley_width_m: number | null
  floors: number
  kind: string
}
export type PlanRow = {
  key: PlanKey
  name: string
  level: 'QHPK 1/2000' | 'QHCT 1/500'
  decision_no: string
  approved_at: string
}

export type DemoTile = {
  index: number
  ward: { name: string; wkt: string }
  alleys: StreetRow[]
  parcels: ParcelRow[]
  baseFeatures: BaseFeatureRow[]
  zones: ZoneRow[]
  reserves: ReserveRow[]
  comparables: ComparableRow[]
}

export type DemoPlan = {
  seed: number
  tiles: number
  tilesX: number
  tilesY: number
  /** Metres from the origin: the whole generated area, outer road edges included. */
  extent: { x0: number; y0: number; x1: number; y1: number }
  plans: PlanRow[]
  streets: StreetRow[]
  prices: PriceRow[]
  provinceWkt: string
  /** Tiles are made one at a time, so a million-parcel set never sits in memory at once. */
  tile(index: number): DemoTile
}

/**
 * A zone's FAR no larger than its density and floors build (core/planning/plan-figures.ts), rounded down to the
 * tenth plans state, so a generated zone never states figures no building could meet.
 */
function farWithin(densityPct: number | null, floors: number | null, far: number | null): number | null {
  const buildable = buildableFar(densityPct, floors)
  return far === null || buildable === null ? far : Math.min(far, Math.floor(buildable * 10 + 1e-9) / 10)
}

const isMainCol = (gx: number) => gx % MAIN_X === 0
const isMainRow = (gy: number) => gy % MAIN_Y === 0

/** A 2023 zoning plan's zone as the 2017 plan it replaced set it (see the comment where it is used). */
function olderZoning(z: ZoneRow): ZoneRow {
  if (z.land_use_code === 'DGD')
    return { ...z, plan: 'qhpk2017', land_use_code: 'ODT', max_density_pct: 80, max_floors: 4, max_far: 2.8 }
  const built = z.land_use_code === 'ODT' || z.land_use_code === 'TMD'
  const density = built && z.max_density_pct !== null ? Math.min(z.max_density_pct + 10, 90) : z.max_density_pct
  const floors = built && z.max_floors !== null ? Math.max(z.max_floors - 2, 2) : z.max_floors
  const far = built && z.max_far !== null ? Math.round(z.max_far * 7) / 10 : z.max_far
  return {
    ...z,
    plan: 'qhpk2017',
    max_density_pct: density,
    max_floors: floors,
    max_far: farWithin(density, floors, far),
  }
}

/** The street grid over every tile: which tile owns each road piece, and each grid line's width, name and key. */
type Grid = ReturnType<typeof demoGrid>
type Rect = [number, number, number, number]

function demoGrid(seed: number, tiles: number) {
  const tilesX = Math.ceil(Math.sqrt(tiles))
  const tilesY = Math.ceil(tiles / tilesX)
  const tileExists = (tx: number, ty: number) => tx >= 0 && ty >= 0 && tx < tilesX && ty * tilesX + tx < tiles
  const tileOfBlock = (bx: number, by: number): number | null => {
    const tx = Math.floor(bx / C)
    const ty = Math.floor(by / R)
    return bx >= 0 && by >= 0 && tileExists(tx, ty) ? ty * tilesX + tx : null
  }
  const colWidth = (gx: number) =>
    createRng(hashSeed(seed, 'cw', gx)).pick(isMainCol(gx) ? [16, 20, 24, 30] : [6, 7, 8, 10, 12])
  const rowWidth = (gy: number) =>
    createRng(hashSeed(seed, 'rw', gy)).pick(isMainRow(gy) ? [16, 20, 24, 30] : [6, 7, 8, 10, 12])
  return {
    seed,
    tiles,
    tilesX,
    tilesY,
    GX: tilesX * C,
    GY: tilesY * R,
    // Each road piece and crossing belongs to exactly one tile: the one north-east of it, else a neighbour.
    colPieceOwner: (gx: number, gy: number) => tileOfBlock(gx, gy) ?? tileOfBlock(gx - 1, gy),
    rowPieceOwner: (gx: number, gy: number) => tileOfBlock(gx, gy) ?? tileOfBlock(gx, gy - 1),
    crossingOwner: (gx: number, gy: number) =>
      tileOfBlock(gx, gy) ?? tileOfBlock(gx - 1, gy) ?? tileOfBlock(gx, gy - 1) ?? tileOfBlock(gx - 1, gy - 1),
    colWidth,
    rowWidth,
    colName: (gx: number) =>
      isMainCol(gx)
        ? nth(mainRoadNames, 2 * (gx / MAIN_X), (n) => `Đại lộ số ${n}`)
        : nth(streetNames, 2 * (gx - Math.floor(gx / MAIN_X) - 1), (n) => `Đường số ${n}`),
    rowName: (gy: number) =>
      isMainRow(gy)
        ? nth(mainRoadNames, 2 * (gy / MAIN_Y) + 1, (n) => `Đại lộ số ${n}`)
        : nth(streetNames, 2 * (gy - Math.floor(gy / MAIN_Y) - 1) + 1, (n) => `Đường số ${n}`),
    wardName: (t: number) => nth(wardNames, t, (n) => `Phường mô phỏng ${n}`),
    colKey: (gx: number, gy: number) => `c:${gx}:${Math.floor(gy / MAIN_Y)}`,
    rowKey: (gx: number, gy: number) => `r:${gy}:${Math.floor(gx / MAIN_X)}`,
    /** A block's land: between the edges of the four streets around it. */
    blockRect: (bx: number, by: number): Rect => [
      bx * PX + colWidth(bx) / 2,
      by * PY + rowWidth(by) / 2,
      (bx + 1) * PX - colWidth(bx + 1) / 2,
      (by + 1) * PY - rowWidth(by + 1) / 2,
    ],
    /** Ward `t`'s square of the grid. */
    wardRect: (t: number): Rect => {
      const tx = t % tilesX
      const ty = Math.floor(t / tilesX)
      return [tx * C * PX, ty * R * PY, (tx + 1) * C * PX, (ty + 1) * R * PY]
    },
  }
}

/** A segment's VT1: higher on main roads, falling off with the distance from the city centre. */
function segmentVt1(seed: number, key: string, main: boolean, x: number, y: number): number {
  const [lng, lat] = toLngLat(x, y)
  const dKm = Math.hypot((lat - CITY_CENTRE.lat) * M_PER_DEG_LAT, (lng - CITY_CENTRE.lng) * M_PER_DEG_LNG) / 1000
  const r = createRng(hashSeed(seed, 'price', key))
  const base = main ? r.range(110e6, 240e6) : r.range(55e6, 120e6)
  return Math.round((base * Math.exp(-dKm / 15)) / 1000) * 1000
}

/** A price-table row with TP.HCM's ratio rule: VT2 = 0.5 × VT1, VT3 = 0.8 × VT2, VT4 = 0.8 × VT3 (DOMAIN.md). */
function priceRow(key: string, name: string, vt1: number, from: string, to: string): PriceRow {
  const thousand = (v: number) => Math.round(v / 1000) * 1000
  const vt2 = thousand(vt1 * 0.5)
  const vt3 = thousand(vt2 * 0.8)
  return {
    street_key: key,
    street_name: name,
    segment_from: from,
    segment_to: to,
    vt1,
    vt2,
    vt3,
    vt4: thousand(vt3 * 0.8),
  }
}

/** The named streets, a segment from one main road to the next, each with its row of the price table. */
function planStreets(g: Grid): { streets: StreetRow[]; prices: PriceRow[]; vt1ByKey: Map<string, number> } {
  const streets: StreetRow[] = []
  const prices: PriceRow[] = []
  const vt1ByKey = new Map<string, number>()
  const addSegment = (key: string, name: string, main: boolean, width: number, owner: number, ends: Rect) => {
    const [ax, ay, bx, by] = ends
    streets.push({
      key,
      name,
      class: main ? 'main' : 'street',
      width_m: width,
      ward: g.wardName(owner),
      wkt: lineWkt([
        [ax, ay],
        [bx, by],
      ]),
    })
    const vt1 = segmentVt1(g.seed, key, main, (ax + bx) / 2, (ay + by) / 2)
    vt1ByKey.set(key, vt1)
    return vt1
  }
  for (let gx = 0; gx <= g.GX; gx++) {
    for (let gy0 = 0; gy0 < g.GY; gy0 += MAIN_Y) {
      const owner = g.colPieceOwner(gx, gy0)
      if (owner === null) continue
      const [key, name] = [g.colKey(gx, gy0), g.colName(gx)]
      const ends: Rect = [gx * PX, gy0 * PY, gx * PX, (gy0 + MAIN_Y) * PY]
      const vt1 = addSegment(key, name, isMainCol(gx), g.colWidth(gx), owner, ends)
      prices.push(priceRow(key, name, vt1, g.rowName(gy0), g.rowName(gy0 + MAIN_Y)))
    }
  }
  for (let gy = 0; gy <= g.GY; gy++) {
    for (let gx0 = 0; gx0 < g.GX; gx0 += MAIN_X) {
      const owner = g.rowPieceOwner(gx0, gy)
      if (owner === null) continue
      const [key, name] = [g.rowKey(gx0, gy), g.rowName(gy)]
      const ends: Rect = [gx0 * PX, gy * PY, (gx0 + MAIN_X) * PX, gy * PY]
      const vt1 = addSegment(key, name, isMainRow(gy), g.rowWidth(gy), owner, ends)
      prices.push(priceRow(key, name, vt1, g.colName(gx0), g.colName(gx0 + MAIN_X)))
    }
  }
  return { streets, prices, vt1ByKey }
}

const PLANS: PlanRow[] = [
  {
    key: 'qhpk',
    name: 'Quy hoạch phân khu tỷ lệ 1/2000 khu dân cư mô phỏng',
    level: 'QHPK 1/2000',
    decision_no: '1234/QĐ-UBND',
    approved_at: '2023-09-15',
  },
  {
    key: 'qhct',
    name: 'Quy hoạch chi tiết tỷ lệ 1/500 khu trung tâm phường mô phỏng',
    level: 'QHCT 1/500',
    decision_no: '5678/QĐ-UBND',
    approved_at: '2025-03-20',
  },
  // Last, so the two plans above keep their ids: the zoning plan the 2023 one replaced (kept as history, compared in "So sánh").
  {
    key: 'qhpk2017',
    name: 'Quy hoạch phân khu tỷ lệ 1/2000 khu dân cư mô phỏng',
    level: 'QHPK 1/2000',
    decision_no: '2468/QĐ-UBND',
    approved_at: '2017-06-12',
  },
]

/** `market` and `salesPerTile` change only the sales: a second market on the same land, for measuring valuation. */
export function planDemo(
  opts: { parcels?: number; seed?: number; market?: MarketRules; salesPerTile?: number } = {},
): DemoPlan {
  const seed = opts.seed ?? DEMO.defaultSeed
  const market = opts.market ?? DEMO_MARKET
  const salesPerTile = opts.salesPerTile ?? DEMO.comparablesPerTile
  const tiles = Math.max(1, Math.ceil((opts.parcels ?? DEMO.defaultParcels) / PARCELS_PER_TILE))
  const g = demoGrid(seed, tiles)
  const { streets, prices, vt1ByKey } = planStreets(g)
  const maxHalfWidth = 15
  const extent = { x0: -maxHalfWidth, y0: -maxHalfWidth, x1: g.GX * PX + maxHalfWidth, y1: g.GY * PY + maxHalfWidth }
  const tile = (index: number): DemoTile => {
    if (index < 0 || index >= tiles) throw new RangeError(`tile ${index} of ${tiles}`)
    return planTile(g, index, vt1ByKey, market, salesPerTile)
  }
  const wardRings = Array.from({ length: tiles }, (_, t) => `(${ring(...g.wardRect(t))})`)
  const provinceWkt = `MULTIPOLYGON(${wardRings.join(',')})`
  return { seed, tiles, tilesX: g.tilesX, tilesY: g.tilesY, extent, plans: PLANS, streets, prices, provinceWkt, tile }
}

/** House numbers on a street: odd on one side, even on the other, rising with distance along it. */
const houseNo = (along: number, odd: boolean) => 2 * Math.floor(along / 4) + (odd ? 1 : 2)
const bare = (street: string) => street.replace(/^Đường /, '')

/** What a parcel's record says besides its outline. */
type ParcelFields = {
  address: string
  street_key: string | null
  frontage_m: number | null
  alley_width_m: number | null
  distance_to_street_m: number | null
  land_use: string[]
}
/** A road parcel, the canal, a lot without an address. */
const unaddressed = (street_key: string | null, land_use: string): ParcelFields => ({
  address: '',
  street_key,
  frontage_m: null,
  alley_width_m: null,
  distance_to_street_m: null,
  land_use: [land_use],
})
/** A lot fronting a street, `frontage` wide. */
const frontLot = (address: string, street_key: string, frontage: number, land_use: string[]): ParcelFields => ({
  address,
  street_key,
  frontage_m: frontage,
  alley_width_m: null,
  distance_to_street_m: 0,
  land_use,
})

type PublicUse = 'park' | 'school' | 'market'
type Alley = { width: number; y: number; westName: string; rect: Rect }

/** One ward being made: its rows so far, and the parcel numbering by cadastral sheet. */
type TileWork = {
  g: Grid
  index: number
  gx0: number
  gy0: number
  ward: string
  out: DemoTile
  saleCandidates: { p: ParcelRow; cx: number; cy: number; commercial: boolean }[]
  special: Map<string, PublicUse>
  replanned: Map<string, string>
  alleyByBlock: Map<string, Alley>
  counters: { park: number; school: number }
  addParcel: (i: number, j: number, rect: Rect, fields: ParcelFields, sale?: { commercial: boolean }) => ParcelRow
}

/** Ward `index`: its blocks, road parcels, canal, plans, reserves and sales, in the order their numbers are drawn. */
function planTile(g: Grid, index: number, vt1ByKey: Map<string, number>, market: MarketRules, salesPerTile: number) {
  const w = startTile(g, index)
  for (let j = 0; j < R; j++) for (let i = 0; i < C; i++) planBlock(w, i, j)
  roadParcels(w)
  const canal = canalAndBoundary(w)
  planZones(w, canal)
  planReserves(w)
  planSales(w, vt1ByKey, market, salesPerTile)
  return w.out
}

/**
 * A ward's empty rows, its public and replanned blocks placed, and the parcel maker. The ward's own
 * sequence draws the public blocks first, then each two-use parcel's split, in the order parcels are made.
 */
function startTile(g: Grid, index: number): TileWork {
  const ward = g.wardName(index)
  const rng = createRng(hashSeed(g.seed, 'tile', index))
  const out: DemoTile = {
    index,
    ward: { name: ward, wkt: rectWkt(...g.wardRect(index)) },
    alleys: [],
    parcels: [],
    baseFeatures: [],
    zones: [],
    reserves: [],
    comparables: [],
  }
  const saleCandidates: TileWork['saleCandidates'] = []
  const sheetCounters = new Map<number, number>()
  const sheetOf = (i: number, j: number) => {
    const ci = Math.min(Math.max(i, 0), C - 1)
    const cj = Math.min(Math.max(j, 0), R - 1)
    return (R / 2 - 1 - Math.floor(cj / 2)) * (C / 2) + Math.floor(ci / 2) + 1
  }
  const addParcel: TileWork['addParcel'] = (i, j, rect, fields, sale) => {
    const sheet = sheetOf(i, j)
    const no = (sheetCounters.get(sheet) ?? 0) + 1
    sheetCounters.set(sheet, no)
    const [x0, y0, x1, y1] = rect
    const area = round1((x1 - x0) * (y1 - y0))
    const p: ParcelRow = {
      key: `${index}:${sheet}:${no}`,
      ward,
      sheet_no: sheet,
      parcel_no: no,
      area_m2: area,
      address: fields.address ? `${fields.address}, ${ward}` : '',
      street_key: fields.street_key,
      frontage_m: fields.frontage_m === null ? null : round2(fields.frontage_m),
      alley_width_m: fields.alley_width_m,
      distance_to_street_m: fields.distance_to_street_m === null ? null : round1(fields.distance_to_street_m),
      land_use: landUseParts(fields.land_use, area, rng),
      wkt: rectWkt(x0, y0, x1, y1),
    }
    out.parcels.push(p)
    if (sale) saleCandidates.push({ p, cx: (x0 + x1) / 2, cy: (y0 + y1) / 2, commercial: sale.commercial })
    return p
  }
  const { special, replanned } = publicBlocks(rng)
  const tx = index % g.tilesX
  const ty = Math.floor(index / g.tilesX)
  return {
    g,
    index,
    gx0: tx * C,
    gy0: ty * R,
    ward,
    out,
    saleCandidates,
    special,
    replanned,
    alleyByBlock: new Map(),
    counters: { park: index * 2, school: index * 4 },
    addParcel,
  }
}

/** A parcel's land-use parts: all of it, or a second use on 30–45 % of it. */
function landUseParts(codes: string[], area: number, rng: Rng): ParcelRow['land_use'] {
  if (codes.length !== 2) return [{ code: codes[0] as string, area_m2: area }]
  const second = round1(area * rng.range(0.3, 0.45))
  return [
    { code: codes[0] as string, area_m2: round1(area - second) },
    { code: codes[1] as string, area_m2: second },
  ]
}

/**
 * Public blocks (parks, schools, a market) placed away from the canal, and detailed-plan blocks planned
 * for public use although people live there now: "vướng quy hoạch".
 */
function publicBlocks(rng: Rng): { special: Map<string, PublicUse>; replanned: Map<string, string> } {
  const special = new Map<string, PublicUse>()
  for (const kind of ['park', 'park', 'school', 'school', 'market'] as const) {
    for (;;) {
      const i = rng.int(0, C - 1)
      const j = rng.int(0, R - 1)
      if (Math.abs(j - CANAL_ROW) <= 1 || special.has(`${i}:${j}`)) continue
      special.set(`${i}:${j}`, kind)
      break
    }
  }
  const replanned = new Map<string, string>()
  for (const code of ['DKV', 'DGD', 'DYT']) {
    for (;;) {
      const key = `${rng.int(0, QHCT_COLS - 1)}:${rng.int(0, QHCT_ROWS - 1)}`
      if (special.has(key) || replanned.has(key)) continue
      replanned.set(key, code)
      break
    }
  }
  return { special, replanned }
}

/** Block (i, j) of the ward: its outline, then the canal, a public use or homes. */
function planBlock(w: TileWork, i: number, j: number) {
  const bx = w.gx0 + i
  const by = w.gy0 + j
  const rect = w.g.blockRect(bx, by)
  const [x0, y0, x1, y1] = rect
  w.out.baseFeatures.push({ kind: 'block', name: '', subkind: '', wkt: polygonWkt(x0, y0, x1, y1) })
  const kind = w.special.get(`${i}:${j}`)
  if (j === CANAL_ROW) canalBlock(w, i, j, rect)
  else if (kind === 'park' || kind === 'market') parkOrMarket(w, kind, i, j, rect)
  else if (kind === 'school') schools(w, i, j, rect)
  else homes(w, i, j, rect)
}

/** The canal through the block's middle, and a strip of green bank on each side facing its street. */
function canalBlock(w: TileWork, i: number, j: number, rect: Rect) {
  const [x0, y0, x1, y1] = rect
  const { g } = w
  const [bx, by] = [w.gx0 + i, w.gy0 + j]
  const yc = (y0 + y1) / 2
  w.addParcel(i, j, [x0, yc - 14, x1, yc + 14], unaddressed(null, 'SON'))
  for (const [a, b, key, name, odd] of [
    [y0, yc - 14, g.rowKey(bx, by), g.rowName(by), false],
    [yc + 14, y1, g.rowKey(bx, by + 1), g.rowName(by + 1), true],
  ] as const) {
    w.addParcel(i, j, [x0, a, x1, b], frontLot(`${houseNo((x0 + x1) / 2, odd)} ${name}`, key, x1 - x0, ['DKV']))
    w.out.baseFeatures.push({ kind: 'green', name: '', subkind: 'bank', wkt: polygonWkt(x0, a, x1, b) })
  }
}

function parkOrMarket(w: TileWork, kind: 'park' | 'market', i: number, j: number, rect: Rect) {
  const [x0, y0, x1, y1] = rect
  const by = w.gy0 + j
  const name =
    kind === 'park'
      ? nth(parkNames, w.counters.park++ % (parkNames.length + 3), (n) => `Công viên khu phố ${n}`)
      : nth(marketNames, w.index, (n) => `Chợ khu phố ${n}`)
  const address = `${houseNo((x0 + x1) / 2, false)} ${w.g.rowName(by)}`
  w.addParcel(i, j, rect, frontLot(address, w.g.rowKey(w.gx0 + i, by), x1 - x0, [kind === 'park' ? 'DKV' : 'TMD']))
  if (kind === 'park')
    w.out.baseFeatures.push({ kind: 'green', name, subkind: 'park', wkt: polygonWkt(x0, y0, x1, y1) })
  w.out.baseFeatures.push({ kind: 'landmark', name, subkind: kind, wkt: pointWkt((x0 + x1) / 2, (y0 + y1) / 2) })
}

/** Two schools side by side, fronting the block's south street. */
function schools(w: TileWork, i: number, j: number, rect: Rect) {
  const [x0, y0, x1, y1] = rect
  const by = w.gy0 + j
  const xm = (x0 + x1) / 2
  for (const [a, b] of [
    [x0, xm],
    [xm, x1],
  ] as const) {
    const name = nth(schoolNames, w.counters.school++ % (schoolNames.length + 5), (n) => `Trường Tiểu học số ${n}`)
    const address = `${houseNo((a + b) / 2, false)} ${w.g.rowName(by)}`
    w.addParcel(i, j, [a, y0, b, y1], frontLot(address, w.g.rowKey(w.gx0 + i, by), b - a, ['DGD']))
    w.out.baseFeatures.push({ kind: 'landmark', name, subkind: 'school', wkt: pointWkt((a + b) / 2, (y0 + y1) / 2) })
  }
}

/** Splits [from, to] into lots of the given widths; a sliver left at the end joins the last lot. */
function split(from: number, to: number, width: () => number): [number, number][] {
  const lots: [number, number][] = []
  let x = from
  while (to - x > 0.01) {
    let w = width()
    if (to - (x + w) < 3) w = to - x
    lots.push([x, x + w])
    x += w
  }
  return lots
}

/**
 * A residential block: lots on the two long streets, an alley (hẻm) across the middle with lots on both
 * sides, and corner lots at the alley rows' ends facing the cross streets.
 */
function homes(w: TileWork, i: number, j: number, rect: Rect) {
  const { g } = w
  const [bx, by] = [w.gx0 + i, w.gy0 + j]
  const [x0, y0, x1, y1] = rect
  const r = createRng(hashSeed(w.g.seed, 'block', bx, by))
  const depth = r.range(14, 18)
  const alleyW = r.pick([1.5, 1.8, 2.2, 2.5, 3, 3.5, 4, 5, 6])
  const middle = (y1 - y0 - 2 * depth - alleyW) / 2
  const yA = y0 + depth + middle + alleyW / 2
  const lotWidth = (main: boolean) => () => (r.chance(main ? 0.2 : 0.1) ? r.range(7, 12) : r.range(4, main ? 8 : 6.5))
  const frontUse = (main: boolean, area: number) =>
    r.chance(main ? 0.35 : 0.05) ? ['TMD'] : area > 90 && r.chance(0.15) ? ['ODT', 'CLN'] : ['ODT']
  for (const [ya, yb, key, name, main, odd] of [
    [y0, y0 + depth, g.rowKey(bx, by), g.rowName(by), isMainRow(by), false],
    [y1 - depth, y1, g.rowKey(bx, by + 1), g.rowName(by + 1), isMainRow(by + 1), true],
  ] as const) {
    for (const [a, b] of split(x0, x1, lotWidth(main))) {
      const use = frontUse(main, (b - a) * (yb - ya))
      const address = `${houseNo((a + b) / 2, odd)} ${name}`
      w.addParcel(i, j, [a, ya, b, yb], frontLot(address, key, b - a, use), { commercial: use[0] === 'TMD' })
    }
  }
  const alley = {
    width: alleyW,
    y: yA,
    end: r.range(12, 16),
    westNo: houseNo(yA, true),
    eastNo: houseNo(yA, false),
  }
  alleys(w, i, j, rect, alley)
  for (const [ya, yb, odd] of [
    [y0 + depth, y0 + depth + middle, false],
    [y1 - depth - middle, y1 - depth, true],
  ] as const) {
    alleyRow(w, i, j, rect, alley, [ya, yb], odd, r)
  }
}

type BlockAlley = { width: number; y: number; end: number; westNo: number; eastNo: number }

/** The block's alley in two halves, each named by the cross street it opens onto ("Hẻm 41 Số 3"). */
function alleys(w: TileWork, i: number, j: number, rect: Rect, alley: BlockAlley) {
  const [bx, by] = [w.gx0 + i, w.gy0 + j]
  const [x0, , x1] = rect
  const xm = (x0 + x1) / 2
  const westAlley = `Hẻm ${alley.westNo} ${bare(w.g.colName(bx))}`
  const eastAlley = `Hẻm ${alley.eastNo} ${bare(w.g.colName(bx + 1))}`
  for (const [key, name, a, b] of [
    [`a:${bx}:${by}:w`, westAlley, x0, xm],
    [`a:${bx}:${by}:e`, eastAlley, xm, x1],
  ] as const) {
    w.out.alleys.push({
      key,
      name,
      class: 'alley',
      width_m: alley.width,
      ward: w.ward,
      wkt: lineWkt([
        [a, alley.y],
        [b, alley.y],
      ]),
    })
  }
  w.alleyByBlock.set(`${i}:${j}`, { width: alley.width, y: alley.y, westName: westAlley, rect })
}

/**
 * One row of lots along the alley, between [ya, yb]: a corner lot on each cross street, and between
 * them lots on the alley addressed from the nearer cross street ("41/4 Đường số 3").
 */
function alleyRow(
  w: TileWork,
  i: number,
  j: number,
  rect: Rect,
  alley: BlockAlley,
  [ya, yb]: [number, number],
  odd: boolean,
  r: Rng,
) {
  const { g } = w
  const [bx, by] = [w.gx0 + i, w.gy0 + j]
  const [x0, , x1] = rect
  const xm = (x0 + x1) / 2
  const yc = (ya + yb) / 2
  const [west, east] = [g.colKey(bx, by), g.colKey(bx + 1, by)]
  const [westName, eastName] = [g.colName(bx), g.colName(bx + 1)]
  const home = { commercial: false }
  const rect0: Rect = [x0, ya, x0 + alley.end, yb]
  w.addParcel(i, j, rect0, frontLot(`${houseNo(yc, true)} ${westName}`, west, yb - ya, ['ODT']), home)
  const lots = split(x0 + alley.end, x1 - alley.end, () => r.range(3.2, 5.5))
  const alleyLot = (a: number, b: number, n: number, address: (k: number) => string, key: string, distance: number) => {
    const use = (b - a) * (yb - ya) > 90 && r.chance(0.1) ? ['ODT', 'CLN'] : ['ODT']
    const k = 2 * n - (odd ? 1 : 0)
    w.addParcel(
      i,
      j,
      [a, ya, b, yb],
      {
        address: address(k),
        street_key: key,
        frontage_m: b - a,
        alley_width_m: alley.width,
        distance_to_street_m: distance,
        land_use: use,
      },
      home,
    )
  }
  // East-half lots are numbered from the east street, so walk them east to west.
  const eastLots = lots.filter(([a, b]) => (a + b) / 2 >= xm).reverse()
  lots
    .filter(([a, b]) => (a + b) / 2 < xm)
    .forEach(([a, b], n) => alleyLot(a, b, n + 1, (k) => `${alley.westNo}/${k} ${westName}`, west, a - x0))
  eastLots.forEach(([a, b], n) => alleyLot(a, b, n + 1, (k) => `${alley.eastNo}/${k} ${eastName}`, east, x1 - b))
  const rect1: Rect = [x1 - alley.end, ya, x1, yb]
  w.addParcel(i, j, rect1, frontLot(`${houseNo(yc, false)} ${eastName}`, east, yb - ya, ['ODT']), home)
}

/** Roads as cadastral parcels (DGT): pieces between crossings, and the crossings themselves. */
function roadParcels(w: TileWork) {
  const { g, gx0, gy0, index } = w
  for (let gx = gx0; gx <= gx0 + C; gx++) {
    for (let gy = gy0; gy <= gy0 + R; gy++) {
      const wc = g.colWidth(gx)
      const wr = g.rowWidth(gy)
      const i = gx - gx0
      const j = gy - gy0
      if (gy < gy0 + R && g.colPieceOwner(gx, gy) === index) {
        const rect: Rect = [
          gx * PX - wc / 2,
          gy * PY + wr / 2,
          gx * PX + wc / 2,
          (gy + 1) * PY - g.rowWidth(gy + 1) / 2,
        ]
        w.addParcel(i, j, rect, unaddressed(g.colKey(gx, gy), 'DGT'))
      }
      if (gx < gx0 + C && g.rowPieceOwner(gx, gy) === index) {
        const rect: Rect = [
          gx * PX + wc / 2,
          gy * PY - wr / 2,
          (gx + 1) * PX - g.colWidth(gx + 1) / 2,
          gy * PY + wr / 2,
        ]
        w.addParcel(i, j, rect, unaddressed(g.rowKey(gx, gy), 'DGT'))
      }
      if (g.crossingOwner(gx, gy) === index) {
        w.addParcel(
          i,
          j,
          [gx * PX - wc / 2, gy * PY - wr / 2, gx * PX + wc / 2, gy * PY + wr / 2],
          unaddressed(null, 'DGT'),
        )
      }
    }
  }
}

/** The canal's water across the ward and the ward's boundary; answers the canal row's south and north edges. */
function canalAndBoundary(w: TileWork): { y0: number; y1: number } {
  const [wx0, wy0, wx1, wy1] = w.g.wardRect(w.index)
  const [, canalY0, , canalY1] = w.g.blockRect(w.gx0, w.gy0 + CANAL_ROW)
  const canalYc = (canalY0 + canalY1) / 2
  w.out.baseFeatures.push({
    kind: 'water',
    name: nth(canalNames, w.index, (n) => `Kênh mô phỏng ${n}`),
    subkind: 'canal',
    wkt: polygonWkt(wx0, canalYc - 14, wx1, canalYc + 14),
  })
  w.out.baseFeatures.push({
    kind: 'ward_boundary',
    name: w.ward,
    subkind: '',
    wkt: lineWkt([
      [wx0, wy0],
      [wx1, wy0],
      [wx1, wy1],
      [wx0, wy1],
      [wx0, wy0],
    ]),
  })
  return { y0: canalY0, y1: canalY1 }
}

/** Density %, floors and FAR a plan sets for each land use (null: not set). */
const ZONE_RULES: Record<string, [number | null, number | null, number | null]> = {
  ODT: [70, 8, 4.5],
  TMD: [50, 15, 7],
  DGD: [40, 5, 2],
  DYT: [40, 7, 2.5],
  DKV: [5, 1, 0.05],
  SON: [null, null, null],
}

/** A zone of `plan` over `rect`, housing and commerce with figures varied a little from ZONE_RULES. */
function zoneRow(plan: PlanKey, code: string, land: string, rect: Rect, r: Rng): ZoneRow {
  const [d, f, far] = ZONE_RULES[land] ?? [null, null, null]
  const vary = land === 'ODT' || land === 'TMD'
  const density = d === null ? null : vary ? d + r.int(-10, 10) : d
  const floors = f === null ? null : vary ? f + r.int(-3, 4) : f
  const varied = far === null ? null : vary ? round1(far + r.range(-1, 1.5)) : far
  return {
    plan,
    block_code: code,
    land_use_code: land,
    max_density_pct: density,
    max_floors: floors,
    max_far: farWithin(density, floors, varied),
    wkt: rectWkt(...rect),
  }
}

/**
 * The zoning plan 1/2000: one zone per 2 × 2 blocks (the canal row apart) and the canal corridor; the
 * detailed plan 1/500: one lot per block in the west of the ward; and the 2017 zoning plan.
 */
function planZones(w: TileWork, canal: { y0: number; y1: number }) {
  const { g, gx0, gy0, out } = w
  const zr = createRng(hashSeed(w.g.seed, 'zones', w.index))
  const useOf = (i: number, j: number) => {
    const k = w.special.get(`${i}:${j}`)
    return k === 'park' ? 'DKV' : k === 'school' ? 'DGD' : k === 'market' ? 'TMD' : 'ODT'
  }
  for (let b = 0; b < R / 2; b++) {
    for (let a = 0; a < C / 2; a++) {
      const rows = [2 * b, 2 * b + 1].filter((j) => j !== CANAL_ROW)
      const uses = rows.flatMap((j) => [2 * a, 2 * a + 1].map((i) => useOf(i, j)))
      const land = uses.find((u) => u !== 'ODT') ?? 'ODT'
      const lo = g.blockRect(gx0 + 2 * a, gy0 + Math.min(...rows))
      const hi = g.blockRect(gx0 + 2 * a + 1, gy0 + Math.max(...rows))
      out.zones.push(zoneRow('qhpk', `${String.fromCharCode(65 + b)}${a + 1}`, land, [lo[0], lo[1], hi[2], hi[3]], zr))
    }
  }
  const [wx0, , wx1] = g.wardRect(w.index)
  out.zones.push(zoneRow('qhpk', 'K1', 'SON', [wx0, canal.y0, wx1, canal.y1], zr))
  for (let j = 0; j < QHCT_ROWS; j++) {
    for (let i = 0; i < QHCT_COLS; i++) {
      const land = w.replanned.get(`${i}:${j}`) ?? useOf(i, j)
      out.zones.push(zoneRow('qhct', `CT.${j * QHCT_COLS + i + 1}`, land, g.blockRect(gx0 + i, gy0 + j), zr))
    }
  }
  // The 2017 zoning plan, on the same blocks: lower buildings and FAR, denser lots, and no school where
  // the 2023 plan put one. Appended after the others (and drawn below them) so their ids stay put.
  for (const z of out.zones.filter((x) => x.plan === 'qhpk')) out.zones.push(olderZoning(z))
}

/** Road reserves: a main road and three streets to be widened, and narrow alleys in the detailed plan. */
function planReserves(w: TileWork) {
  const { g, gx0, gy0, out } = w
  const [wx0, wy0, wx1, wy1] = g.wardRect(w.index)
  const rowReserve = (j: number, width: number, plan: PlanKey) => {
    const gy = gy0 + j
    const wkt = rectWkt(wx0, gy * PY - width / 2, wx1, gy * PY + width / 2)
    out.reserves.push({ plan, road_name: g.rowName(gy), width_m: width, wkt })
  }
  const colReserve = (i: number, width: number, plan: PlanKey) => {
    const gx = gx0 + i
    const wkt = rectWkt(gx * PX - width / 2, wy0, gx * PX + width / 2, wy1)
    out.reserves.push({ plan, road_name: g.colName(gx), width_m: width, wkt })
  }
  rowReserve(8, Math.min(g.rowWidth(gy0 + 8) + 10, 40), 'qhpk')
  rowReserve(3, 20, 'qhpk')
  colReserve(2, Math.max(g.colWidth(gx0 + 2) + 4, 16), 'qhpk')
  colReserve(7, Math.max(g.colWidth(gx0 + 7) + 4, 16), 'qhpk')
  for (const [key, alley] of w.alleyByBlock) {
    const [i, j] = key.split(':').map(Number) as [number, number]
    if (i >= QHCT_COLS || j >= QHCT_ROWS || alley.width > 3) continue
    const wkt = rectWkt(alley.rect[0], alley.y - 3, alley.rect[2], alley.y + 3)
    out.reserves.push({ plan: 'qhct', road_name: alley.westName, width_m: 6, wkt })
  }
  // The 2017 zoning plan widened the main road less, one street alike, and did not widen the other two.
  rowReserve(8, Math.min(g.rowWidth(gy0 + 8) + 4, 30), 'qhpk2017')
  colReserve(2, Math.max(g.colWidth(gx0 + 2) + 2, 12), 'qhpk2017')
}

/** Market sales of the last 24 months on the ward's lots, priced by the hidden model. */
function planSales(w: TileWork, vt1ByKey: Map<string, number>, market: MarketRules, salesPerTile: number) {
  const cr = createRng(hashSeed(w.g.seed, 'sales', w.index))
  const end = Date.parse(`${DEMO.dataDate}T00:00:00Z`)
  for (let n = 0; n < salesPerTile; n++) {
    const c = cr.pick(w.saleCandidates)
    const daysAgo = cr.int(0, 729)
    const alley = c.p.alley_width_m
    const floors = alley ? cr.int(1, 5) : cr.int(2, 6)
    const frontage = c.p.frontage_m ?? 4
    const vt1 = vt1ByKey.get(c.p.street_key ?? '')
    if (vt1 === undefined) throw new Error(`parcel ${c.p.key} has no priced street`)
    const ppm = hiddenPricePerM2(
      {
        vt1,
        alleyWidthM: alley,
        distanceM: c.p.distance_to_street_m ?? 0,
        areaM2: c.p.area_m2,
        frontageM: frontage,
        floors,
        commercial: c.commercial,
        month: (729 - daysAgo) / 30.4,
        x: c.cx,
        y: c.cy,
      },
      cr.normal(),
      market,
    )
    w.out.comparables.push({
      wkt: pointWkt(c.cx + cr.range(-1, 1), c.cy + cr.range(-1, 1)),
      observed_at: new Date(end - daysAgo * 86_400_000).toISOString().slice(0, 10),
      price_vnd: Math.round((ppm * c.p.area_m2) / 1e6) * 1e6,
      area_m2: c.p.area_m2,
      frontage_m: frontage,
      alley_width_m: alley,
      floors,
      kind: c.commercial ? 'nha_mat_tien_kinh_doanh' : alley ? 'nha_hem' : 'nha_mat_tien',
    })
  }
}

/** A digest of every generated row: equal digests mean the same dataset. */
export function demoChecksum(plan: DemoPlan): { sha256: string; parcels: number; comparables: number; zones: number } {
  const h = createHash('sha256')
  h.update(JSON.stringify([plan.plans, plan.streets, plan.prices, plan.provinceWkt]))
  let parcels = 0
  let comparables = 0
  let zones = 0
  for (let t = 0; t < plan.tiles; t++) {
    const tile = plan.tile(t)
    h.update(JSON.stringify(tile))
    parcels += tile.parcels.length
    comparables += tile.comparables.length
    zones += tile.zones.length
  }
  return { sha256: h.digest('hex'), parcels, comparables, zones }
}
