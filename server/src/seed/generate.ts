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

/** `market` and `salesPerTile` change only the sales: a second market on the same land, for measuring valuation. */
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

export function planDemo(
  opts: { parcels?: number; seed?: number; market?: MarketRules; salesPerTile?: number } = {},
): DemoPlan {
  const seed = opts.seed ?? DEMO.defaultSeed
  const market = opts.market ?? DEMO_MARKET
  const salesPerTile = opts.salesPerTile ?? DEMO.comparablesPerTile
  const tiles = Math.max(1, Math.ceil((opts.parcels ?? DEMO.defaultParcels) / PARCELS_PER_TILE))
  const tilesX = Math.ceil(Math.sqrt(tiles))
  const tilesY = Math.ceil(tiles / tilesX)

  const tileExists = (tx: number, ty: number) => tx >= 0 && ty >= 0 && tx < tilesX && ty * tilesX + tx < tiles
  const tileOfBlock = (bx: number, by: number): number | null => {
    const tx = Math.floor(bx / C)
    const ty = Math.floor(by / R)
    return bx >= 0 && by >= 0 && tileExists(tx, ty) ? ty * tilesX + tx : null
  }
  // Each road piece and crossing belongs to exactly one tile: the one north-east of it, else a neighbour.
  const colPieceOwner = (gx: number, gy: number) => tileOfBlock(gx, gy) ?? tileOfBlock(gx - 1, gy)
  const rowPieceOwner = (gx: number, gy: number) => tileOfBlock(gx, gy) ?? tileOfBlock(gx, gy - 1)
  const crossingOwner = (gx: number, gy: number) =>
    tileOfBlock(gx, gy) ?? tileOfBlock(gx - 1, gy) ?? tileOfBlock(gx, gy - 1) ?? tileOfBlock(gx - 1, gy - 1)

  const colWidth = (gx: number) =>
    createRng(hashSeed(seed, 'cw', gx)).pick(isMainCol(gx) ? [16, 20, 24, 30] : [6, 7, 8, 10, 12])
  const rowWidth = (gy: number) =>
    createRng(hashSeed(seed, 'rw', gy)).pick(isMainRow(gy) ? [16, 20, 24, 30] : [6, 7, 8, 10, 12])
  const colName = (gx: number) =>
    isMainCol(gx)
      ? nth(mainRoadNames, 2 * (gx / MAIN_X), (n) => `Đại lộ số ${n}`)
      : nth(streetNames, 2 * (gx - Math.floor(gx / MAIN_X) - 1), (n) => `Đường số ${n}`)
  const rowName = (gy: number) =>
    isMainRow(gy)
      ? nth(mainRoadNames, 2 * (gy / MAIN_Y) + 1, (n) => `Đại lộ số ${n}`)
      : nth(streetNames, 2 * (gy - Math.floor(gy / MAIN_Y) - 1) + 1, (n) => `Đường số ${n}`)
  const wardName = (t: number) => nth(wardNames, t, (n) => `Phường mô phỏng ${n}`)
  const colKey = (gx: number, gy: number) => `c:${gx}:${Math.floor(gy / MAIN_Y)}`
  const rowKey = (gx: number, gy: number) => `r:${gy}:${Math.floor(gx / MAIN_X)}`

  const GX = tilesX * C
  const GY = tilesY * R
  const streets: StreetRow[] = []
  const prices: PriceRow[] = []
  const vt1ByKey = new Map<string, number>()
  const streetNameByKey = new Map<string, string>()
  const priceFor = (key: string, main: boolean, x: number, y: number) => {
    const [lng, lat] = toLngLat(x, y)
    const dKm = Math.hypot((lat - CITY_CENTRE.lat) * M_PER_DEG_LAT, (lng - CITY_CENTRE.lng) * M_PER_DEG_LNG) / 1000
    const r = createRng(hashSeed(seed, 'price', key))
    const base = main ? r.range(110e6, 240e6) : r.range(55e6, 120e6)
    return Math.round((base * Math.exp(-dKm / 15)) / 1000) * 1000
  }
  const addSegment = (
    key: string,
    name: string,
    main: boolean,
    width: number,
    owner: number,
    a: [number, number],
    b: [number, number],
    from: string,
    to: string,
  ) => {
    streets.push({
      key,
      name,
      class: main ? 'main' : 'street',
      width_m: width,
      ward: wardName(owner),
      wkt: lineWkt([a, b]),
    })
    const vt1 = priceFor(key, main, (a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    vt1ByKey.set(key, vt1)
    streetNameByKey.set(key, name)
    // TP.HCM's ratio rule: VT2 = 0.5 × VT1, VT3 = 0.8 × VT2, VT4 = 0.8 × VT3 (DOMAIN.md).
    const thousand = (v: number) => Math.round(v / 1000) * 1000
    const vt2 = thousand(vt1 * 0.5)
    const vt3 = thousand(vt2 * 0.8)
    prices.push({
      street_key: key,
      street_name: name,
      segment_from: from,
      segment_to: to,
      vt1,
      vt2,
      vt3,
      vt4: thousand(vt3 * 0.8),
    })
  }
  for (let gx = 0; gx <= GX; gx++) {
    for (let gy0 = 0; gy0 < GY; gy0 += MAIN_Y) {
      const owner = colPieceOwner(gx, gy0)
      if (owner === null) continue
      addSegment(
        colKey(gx, gy0),
        colName(gx),
        isMainCol(gx),
        colWidth(gx),
        owner,
        [gx * PX, gy0 * PY],
        [gx * PX, (gy0 + MAIN_Y) * PY],
        rowName(gy0),
        rowName(gy0 + MAIN_Y),
      )
    }
  }
  for (let gy = 0; gy <= GY; gy++) {
    for (let gx0 = 0; gx0 < GX; gx0 += MAIN_X) {
      const owner = rowPieceOwner(gx0, gy)
      if (owner === null) continue
      addSegment(
        rowKey(gx0, gy),
        rowName(gy),
        isMainRow(gy),
        rowWidth(gy),
        owner,
        [gx0 * PX, gy * PY],
        [(gx0 + MAIN_X) * PX, gy * PY],
        colName(gx0),
        colName(gx0 + MAIN_X),
      )
    }
  }

  const wardRects: [number, number, number, number][] = []
  for (let t = 0; t < tiles; t++) {
    const tx = t % tilesX
    const ty = Math.floor(t / tilesX)
    wardRects.push([tx * C * PX, ty * R * PY, (tx + 1) * C * PX, (ty + 1) * R * PY])
  }
  const maxHalfWidth = 15
  const extent = { x0: -maxHalfWidth, y0: -maxHalfWidth, x1: GX * PX + maxHalfWidth, y1: GY * PY + maxHalfWidth }

  const plans: PlanRow[] = [
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

  /** House numbers on a street: odd on one side, even on the other, rising with distance along it. */
  const houseNo = (along: number, odd: boolean) => 2 * Math.floor(along / 4) + (odd ? 1 : 2)
  const bare = (street: string) => street.replace(/^Đường /, '')

  function tile(index: number): DemoTile {
    if (index < 0 || index >= tiles) throw new RangeError(`tile ${index} of ${tiles}`)
    const tx = index % tilesX
    const ty = Math.floor(index / tilesX)
    const ward = wardName(index)
    const rng = createRng(hashSeed(seed, 'tile', index))
    const alleys: StreetRow[] = []
    const parcels: ParcelRow[] = []
    const baseFeatures: BaseFeatureRow[] = []
    const zones: ZoneRow[] = []
    const reserves: ReserveRow[] = []
    const comparables: ComparableRow[] = []
    const saleCandidates: { p: ParcelRow; cx: number; cy: number; commercial: boolean }[] = []
    const sheetCounters = new Map<number, number>()
    const sheetOf = (i: number, j: number) => {
      const ci = Math.min(Math.max(i, 0), C - 1)
      const cj = Math.min(Math.max(j, 0), R - 1)
      return (R / 2 - 1 - Math.floor(cj / 2)) * (C / 2) + Math.floor(ci / 2) + 1
    }
    const addParcel = (
      i: number,
      j: number,
      rect: [number, number, number, number],
      fields: {
        address: string
        street_key: string | null
        frontage_m: number | null
        alley_width_m: number | null
        distance_to_street_m: number | null
        land_use: string[]
      },
      sale?: { commercial: boolean },
    ) => {
      const sheet = sheetOf(i, j)
      const no = (sheetCounters.get(sheet) ?? 0) + 1
      sheetCounters.set(sheet, no)
      const [x0, y0, x1, y1] = rect
      const area = round1((x1 - x0) * (y1 - y0))
      const land_use =
        fields.land_use.length === 2
          ? (() => {
              const second = round1(area * rng.range(0.3, 0.45))
              return [
                { code: fields.land_use[0] as string, area_m2: round1(area - second) },
                { code: fields.land_use[1] as string, area_m2: second },
              ]
            })()
          : [{ code: fields.land_use[0] as string, area_m2: area }]
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
        land_use,
        wkt: rectWkt(x0, y0, x1, y1),
      }
      parcels.push(p)
      if (sale) saleCandidates.push({ p, cx: (x0 + x1) / 2, cy: (y0 + y1) / 2, commercial: sale.commercial })
      return p
    }

    /** Splits [from, to] into lots of the given widths; a sliver left at the end joins the last lot. */
    const split = (from: number, to: number, width: () => number): [number, number][] => {
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

    const blockRect = (bx: number, by: number): [number, number, number, number] => [
      bx * PX + colWidth(bx) / 2,
      by * PY + rowWidth(by) / 2,
      (bx + 1) * PX - colWidth(bx + 1) / 2,
      (by + 1) * PY - rowWidth(by + 1) / 2,
    ]

    // Public blocks: parks, schools, a market, placed per ward away from the canal.
    const special = new Map<string, 'park' | 'school' | 'market'>()
    const kinds: ('park' | 'school' | 'market')[] = ['park', 'park', 'school', 'school', 'market']
    for (const kind of kinds) {
      for (;;) {
        const i = rng.int(0, C - 1)
        const j = rng.int(0, R - 1)
        if (Math.abs(j - CANAL_ROW) <= 1 || special.has(`${i}:${j}`)) continue
        special.set(`${i}:${j}`, kind)
        break
      }
    }
    // Detailed-plan blocks planned for public use although people live there now: "vướng quy hoạch".
    const replanned = new Map<string, string>()
    for (const code of ['DKV', 'DGD', 'DYT']) {
      for (;;) {
        const key = `${rng.int(0, QHCT_COLS - 1)}:${rng.int(0, QHCT_ROWS - 1)}`
        if (special.has(key) || replanned.has(key)) continue
        replanned.set(key, code)
        break
      }
    }
    let parkNo = index * 2
    let schoolNo = index * 4
    const alleyByBlock = new Map<
      string,
      { width: number; y: number; westName: string; rect: [number, number, number, number] }
    >()

    for (let j = 0; j < R; j++) {
      for (let i = 0; i < C; i++) {
        const bx = tx * C + i
        const by = ty * R + j
        const rect = blockRect(bx, by)
        const [x0, y0, x1, y1] = rect
        baseFeatures.push({ kind: 'block', name: '', subkind: '', wkt: polygonWkt(x0, y0, x1, y1) })
        const south = rowKey(bx, by)
        const north = rowKey(bx, by + 1)
        const west = colKey(bx, by)
        const east = colKey(bx + 1, by)
        const southName = rowName(by)
        const northName = rowName(by + 1)
        const kind = special.get(`${i}:${j}`)

        if (j === CANAL_ROW) {
          const yc = (y0 + y1) / 2
          addParcel(i, j, [x0, yc - 14, x1, yc + 14], {
            address: '',
            street_key: null,
            frontage_m: null,
            alley_width_m: null,
            distance_to_street_m: null,
            land_use: ['SON'],
          })
          for (const [a, b, key, name, odd] of [
            [y0, yc - 14, south, southName, false],
            [yc + 14, y1, north, northName, true],
          ] as const) {
            addParcel(i, j, [x0, a, x1, b], {
              address: `${houseNo((x0 + x1) / 2, odd)} ${name}`,
              street_key: key,
              frontage_m: x1 - x0,
              alley_width_m: null,
              distance_to_street_m: 0,
              land_use: ['DKV'],
            })
            baseFeatures.push({ kind: 'green', name: '', subkind: 'bank', wkt: polygonWkt(x0, a, x1, b) })
          }
          continue
        }
        if (kind === 'park' || kind === 'market') {
          const name =
            kind === 'park'
              ? nth(parkNames, parkNo++ % (parkNames.length + 3), (n) => `Công viên khu phố ${n}`)
              : nth(marketNames, index, (n) => `Chợ khu phố ${n}`)
          addParcel(i, j, rect, {
            address: `${houseNo((x0 + x1) / 2, false)} ${southName}`,
            street_key: south,
            frontage_m: x1 - x0,
            alley_width_m: null,
            distance_to_street_m: 0,
            land_use: [kind === 'park' ? 'DKV' : 'TMD'],
          })
          if (kind === 'park')
            baseFeatures.push({ kind: 'green', name, subkind: 'park', wkt: polygonWkt(x0, y0, x1, y1) })
          baseFeatures.push({ kind: 'landmark', name, subkind: kind, wkt: pointWkt((x0 + x1) / 2, (y0 + y1) / 2) })
          continue
        }
        if (kind === 'school') {
          const xm = (x0 + x1) / 2
          for (const [a, b] of [
            [x0, xm],
            [xm, x1],
          ] as const) {
            const name = nth(schoolNames, schoolNo++ % (schoolNames.length + 5), (n) => `Trường Tiểu học số ${n}`)
            addParcel(i, j, [a, y0, b, y1], {
              address: `${houseNo((a + b) / 2, false)} ${southName}`,
              street_key: south,
              frontage_m: b - a,
              alley_width_m: null,
              distance_to_street_m: 0,
              land_use: ['DGD'],
            })
            baseFeatures.push({ kind: 'landmark', name, subkind: 'school', wkt: pointWkt((a + b) / 2, (y0 + y1) / 2) })
          }
          continue
        }

        // A residential block: lots on the two long streets, an alley (hẻm) across the middle with
        // lots on both sides, and corner lots at the alley rows' ends facing the cross streets.
        const r = createRng(hashSeed(seed, 'block', bx, by))
        const depth = r.range(14, 18)
        const alleyW = r.pick([1.5, 1.8, 2.2, 2.5, 3, 3.5, 4, 5, 6])
        const middle = (y1 - y0 - 2 * depth - alleyW) / 2
        const yA = y0 + depth + middle + alleyW / 2
        const onMainS = isMainRow(by)
        const onMainN = isMainRow(by + 1)
        const frontLot = (main: boolean) => () =>
          r.chance(main ? 0.2 : 0.1) ? r.range(7, 12) : r.range(4, main ? 8 : 6.5)
        const frontUse = (main: boolean, area: number) =>
          r.chance(main ? 0.35 : 0.05) ? ['TMD'] : area > 90 && r.chance(0.15) ? ['ODT', 'CLN'] : ['ODT']
        for (const [ya, yb, key, name, main, odd] of [
          [y0, y0 + depth, south, southName, onMainS, false],
          [y1 - depth, y1, north, northName, onMainN, true],
        ] as const) {
          for (const [a, b] of split(x0, x1, frontLot(main))) {
            const use = frontUse(main, (b - a) * (yb - ya))
            addParcel(
              i,
              j,
              [a, ya, b, yb],
              {
                address: `${houseNo((a + b) / 2, odd)} ${name}`,
                street_key: key,
                frontage_m: b - a,
                alley_width_m: null,
                distance_to_street_m: 0,
                land_use: use,
              },
              { commercial: use[0] === 'TMD' },
            )
          }
        }
        const westName = colName(bx)
        const eastName = colName(bx + 1)
        const end = r.range(12, 16)
        const xm = (x0 + x1) / 2
        const westAlleyNo = houseNo(yA, true)
        const eastAlleyNo = houseNo(yA, false)
        const westAlley = `Hẻm ${westAlleyNo} ${bare(westName)}`
        const eastAlley = `Hẻm ${eastAlleyNo} ${bare(eastName)}`
        const westAlleyKey = `a:${bx}:${by}:w`
        const eastAlleyKey = `a:${bx}:${by}:e`
        alleys.push({
          key: westAlleyKey,
          name: westAlley,
          class: 'alley',
          width_m: alleyW,
          ward,
          wkt: lineWkt([
            [x0, yA],
            [xm, yA],
          ]),
        })
        alleys.push({
          key: eastAlleyKey,
          name: eastAlley,
          class: 'alley',
          width_m: alleyW,
          ward,
          wkt: lineWkt([
            [xm, yA],
            [x1, yA],
          ]),
        })
        alleyByBlock.set(`${i}:${j}`, { width: alleyW, y: yA, westName: westAlley, rect })
        for (const [ya, yb, odd] of [
          [y0 + depth, y0 + depth + middle, false],
          [y1 - depth - middle, y1 - depth, true],
        ] as const) {
          const yc = (ya + yb) / 2
          addParcel(
            i,
            j,
            [x0, ya, x0 + end, yb],
            {
              address: `${houseNo(yc, true)} ${westName}`,
              street_key: west,
              frontage_m: yb - ya,
              alley_width_m: null,
              distance_to_street_m: 0,
              land_use: ['ODT'],
            },
            { commercial: false },
          )
          let westK = 0
          let eastK = 0
          const lots = split(x0 + end, x1 - end, () => r.range(3.2, 5.5))
          // East-half lots are numbered from the east street, so walk them east to west.
          const eastLots = lots.filter(([a, b]) => (a + b) / 2 >= xm).reverse()
          for (const [a, b] of lots.filter(([a, b]) => (a + b) / 2 < xm)) {
            westK += 1
            const k = 2 * westK - (odd ? 1 : 0)
            const use = (b - a) * (yb - ya) > 90 && r.chance(0.1) ? ['ODT', 'CLN'] : ['ODT']
            addParcel(
              i,
              j,
              [a, ya, b, yb],
              {
                address: `${westAlleyNo}/${k} ${westName}`,
                street_key: west,
                frontage_m: b - a,
                alley_width_m: alleyW,
                distance_to_street_m: a - x0,
                land_use: use,
              },
              { commercial: false },
            )
          }
          for (const [a, b] of eastLots) {
            eastK += 1
            const k = 2 * eastK - (odd ? 1 : 0)
            const use = (b - a) * (yb - ya) > 90 && r.chance(0.1) ? ['ODT', 'CLN'] : ['ODT']
            addParcel(
              i,
              j,
              [a, ya, b, yb],
              {
                address: `${eastAlleyNo}/${k} ${eastName}`,
                street_key: east,
                frontage_m: b - a,
                alley_width_m: alleyW,
                distance_to_street_m: x1 - b,
                land_use: use,
              },
              { commercial: false },
            )
          }
          addParcel(
            i,
            j,
            [x1 - end, ya, x1, yb],
            {
              address: `${houseNo(yc, false)} ${eastName}`,
              street_key: east,
              frontage_m: yb - ya,
              alley_width_m: null,
              distance_to_street_m: 0,
              land_use: ['ODT'],
            },
            { commercial: false },
          )
        }
      }
    }

    // Roads as cadastral parcels (DGT): pieces between crossings, and the crossings themselves.
    const gx0 = tx * C
    const gy0 = ty * R
    for (let gx = gx0; gx <= gx0 + C; gx++) {
      for (let gy = gy0; gy <= gy0 + R; gy++) {
        const wc = colWidth(gx)
        const wr = rowWidth(gy)
        const i = gx - gx0
        const j = gy - gy0
        if (gy < gy0 + R && colPieceOwner(gx, gy) === index) {
          addParcel(
            i,
            j,
            [gx * PX - wc / 2, gy * PY + wr / 2, gx * PX + wc / 2, (gy + 1) * PY - rowWidth(gy + 1) / 2],
            {
              address: '',
              street_key: colKey(gx, gy),
              frontage_m: null,
              alley_width_m: null,
              distance_to_street_m: null,
              land_use: ['DGT'],
            },
          )
        }
        if (gx < gx0 + C && rowPieceOwner(gx, gy) === index) {
          addParcel(
            i,
            j,
            [gx * PX + wc / 2, gy * PY - wr / 2, (gx + 1) * PX - colWidth(gx + 1) / 2, gy * PY + wr / 2],
            {
              address: '',
              street_key: rowKey(gx, gy),
              frontage_m: null,
              alley_width_m: null,
              distance_to_street_m: null,
              land_use: ['DGT'],
            },
          )
        }
        if (crossingOwner(gx, gy) === index) {
          addParcel(i, j, [gx * PX - wc / 2, gy * PY - wr / 2, gx * PX + wc / 2, gy * PY + wr / 2], {
            address: '',
            street_key: null,
            frontage_m: null,
            alley_width_m: null,
            distance_to_street_m: null,
            land_use: ['DGT'],
          })
        }
      }
    }

    const [wx0, wy0, wx1, wy1] = wardRects[index] as [number, number, number, number]
    const canalY0 = blockRect(gx0, gy0 + CANAL_ROW)[1]
    const canalY1 = blockRect(gx0, gy0 + CANAL_ROW)[3]
    const canalYc = (canalY0 + canalY1) / 2
    const canalName = nth(canalNames, index, (n) => `Kênh mô phỏng ${n}`)
    baseFeatures.push({
      kind: 'water',
      name: canalName,
      subkind: 'canal',
      wkt: polygonWkt(wx0, canalYc - 14, wx1, canalYc + 14),
    })
    baseFeatures.push({
      kind: 'ward_boundary',
      name: ward,
      subkind: '',
      wkt: lineWkt([
        [wx0, wy0],
        [wx1, wy0],
        [wx1, wy1],
        [wx0, wy1],
        [wx0, wy0],
      ]),
    })

    // Zoning plan 1/2000: one zone per 2 × 2 blocks (the canal row apart), and the canal corridor.
    const rules: Record<string, [number | null, number | null, number | null]> = {
      ODT: [70, 8, 4.5],
      TMD: [50, 15, 7],
      DGD: [40, 5, 2],
      DYT: [40, 7, 2.5],
      DKV: [5, 1, 0.05],
      SON: [null, null, null],
    }
    const zone = (
      plan: PlanKey,
      code: string,
      land: string,
      x0: number,
      y0: number,
      x1: number,
      y1: number,
      r: Rng,
    ) => {
      const [d, f, far] = rules[land] ?? [null, null, null]
      const vary = land === 'ODT' || land === 'TMD'
      const density = d === null ? null : vary ? d + r.int(-10, 10) : d
      const floors = f === null ? null : vary ? f + r.int(-3, 4) : f
      const varied = far === null ? null : vary ? round1(far + r.range(-1, 1.5)) : far
      zones.push({
        plan,
        block_code: code,
        land_use_code: land,
        max_density_pct: density,
        max_floors: floors,
        max_far: farWithin(density, floors, varied),
        wkt: rectWkt(x0, y0, x1, y1),
      })
    }
    const zr = createRng(hashSeed(seed, 'zones', index))
    const useOf = (i: number, j: number) => {
      const k = special.get(`${i}:${j}`)
      return k === 'park' ? 'DKV' : k === 'school' ? 'DGD' : k === 'market' ? 'TMD' : 'ODT'
    }
    for (let b = 0; b < R / 2; b++) {
      for (let a = 0; a < C / 2; a++) {
        const rows = [2 * b, 2 * b + 1].filter((j) => j !== CANAL_ROW)
        const cols = [2 * a, 2 * a + 1]
        const uses = rows.flatMap((j) => cols.map((i) => useOf(i, j)))
        const land = uses.find((u) => u !== 'ODT') ?? 'ODT'
        const lo = blockRect(gx0 + 2 * a, gy0 + Math.min(...rows))
        const hi = blockRect(gx0 + 2 * a + 1, gy0 + Math.max(...rows))
        zone('qhpk', `${String.fromCharCode(65 + b)}${a + 1}`, land, lo[0], lo[1], hi[2], hi[3], zr)
      }
    }
    zone('qhpk', 'K1', 'SON', wx0, canalY0, wx1, canalY1, zr)
    // Detailed plan 1/500: one lot per block in the west of the ward.
    for (let j = 0; j < QHCT_ROWS; j++) {
      for (let i = 0; i < QHCT_COLS; i++) {
        const [x0, y0, x1, y1] = blockRect(gx0 + i, gy0 + j)
        zone('qhct', `CT.${j * QHCT_COLS + i + 1}`, replanned.get(`${i}:${j}`) ?? useOf(i, j), x0, y0, x1, y1, zr)
      }
    }

    // The 2017 zoning plan, on the same blocks: lower buildings and FAR, denser lots, and no school where
    // the 2023 plan put one. Appended after the others (and drawn below them) so their ids stay put.
    for (const z of zones.filter((x) => x.plan === 'qhpk')) zones.push(olderZoning(z))

    // Road reserves: a main road and three streets to be widened, and narrow alleys in the detailed plan.
    const rowReserve = (j: number, width: number, plan: PlanKey) => {
      const gy = gy0 + j
      reserves.push({
        plan,
        road_name: rowName(gy),
        width_m: width,
        wkt: rectWkt(wx0, gy * PY - width / 2, wx1, gy * PY + width / 2),
      })
    }
    const colReserve = (i: number, width: number, plan: PlanKey) => {
      const gx = gx0 + i
      reserves.push({
        plan,
        road_name: colName(gx),
        width_m: width,
        wkt: rectWkt(gx * PX - width / 2, wy0, gx * PX + width / 2, wy1),
      })
    }
    rowReserve(8, Math.min(rowWidth(gy0 + 8) + 10, 40), 'qhpk')
    rowReserve(3, 20, 'qhpk')
    colReserve(2, Math.max(colWidth(gx0 + 2) + 4, 16), 'qhpk')
    colReserve(7, Math.max(colWidth(gx0 + 7) + 4, 16), 'qhpk')
    for (const [key, alley] of alleyByBlock) {
      const [i, j] = key.split(':').map(Number) as [number, number]
      if (i >= QHCT_COLS || j >= QHCT_ROWS || alley.width > 3) continue
      reserves.push({
        plan: 'qhct',
        road_name: alley.westName,
        width_m: 6,
        wkt: rectWkt(alley.rect[0], alley.y - 3, alley.rect[2], alley.y + 3),
      })
    }
    // The 2017 zoning plan widened the main road less, one street alike, and did not widen the other two.
    rowReserve(8, Math.min(rowWidth(gy0 + 8) + 4, 30), 'qhpk2017')
    colReserve(2, Math.max(colWidth(gx0 + 2) + 2, 12), 'qhpk2017')

    // Market sales of the last 24 months, priced by the hidden model.
    const cr = createRng(hashSeed(seed, 'sales', index))
    const end = Date.parse(`${DEMO.dataDate}T00:00:00Z`)
    for (let n = 0; n < salesPerTile; n++) {
      const c = cr.pick(saleCandidates)
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
      comparables.push({
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

    return {
      index,
      ward: { name: ward, wkt: rectWkt(wx0, wy0, wx1, wy1) },
      alleys,
      parcels,
      baseFeatures,
      zones,
      reserves,
      comparables,
    }
  }

  const provinceWkt = `MULTIPOLYGON(${wardRects.map(([a, b, c, d]) => `(${ring(a, b, c, d)})`).join(',')})`
  return { seed, tiles, tilesX, tilesY, extent, plans, streets, prices, provinceWkt, tile }
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
