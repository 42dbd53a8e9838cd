import { z } from 'zod/mini'
import { VALUATION_RANGES } from '../limits.ts'

const num = (label: string) =>
  z.coerce.number({ error: `${label} phải là số.` }).check(z.refine(Number.isFinite, `${label} phải là số hữu hạn.`))

export const latLngQuery = z.object({
  lat: z.pipe(
    num('Vĩ độ'),
    z.number().check(z.gte(-90, 'Vĩ độ phải từ -90 đến 90.'), z.lte(90, 'Vĩ độ phải từ -90 đến 90.')),
  ),
  lng: z.pipe(
    num('Kinh độ'),
    z.number().check(z.gte(-180, 'Kinh độ phải từ -180 đến 180.'), z.lte(180, 'Kinh độ phải từ -180 đến 180.')),
  ),
})

/** A box as `west,south,east,north` in degrees (query strings of tile packs and plan comparisons). */
const degrees = (limit: number) => z.number().check(z.gte(-limit), z.lte(limit))
export const bboxParam = z.pipe(
  z.pipe(
    z.string(),
    z.transform((s) => s.split(',').map(Number)),
  ),
  z
    .tuple([degrees(180), degrees(90), degrees(180), degrees(90)], {
      error: 'bbox phải là bốn số tây,nam,đông,bắc (độ).',
    })
    .check(z.refine(([w, s, e, n]) => w < e && s < n, 'bbox phải có tây < đông và nam < bắc.')),
)

const vi = (n: number) => n.toLocaleString('vi-VN')
const range = (label: string, unit: string, r: { min: number; max: number }) =>
  z
    .number({ error: `${label} phải là số.` })
    .check(
      z.gte(r.min, `${label} từ ${vi(r.min)} đến ${vi(r.max)}${unit}.`),
      z.lte(r.max, `${label} từ ${vi(r.min)} đến ${vi(r.max)}${unit}.`),
    )
const { area_m2, frontage_m, alley_width_m, floors } = VALUATION_RANGES

export const valuationBody = z.object({
  lat: z.number({ error: 'Vĩ độ phải là số.' }).check(z.gte(-90), z.lte(90)),
  lng: z.number({ error: 'Kinh độ phải là số.' }).check(z.gte(-180), z.lte(180)),
  area_m2: z.optional(range('Diện tích', ' m²', area_m2)),
  frontage_m: z.optional(range('Mặt tiền', ' m', frontage_m)),
  /** 0 or absent-with-frontage means the parcel fronts the street. */
  alley_width_m: z.optional(
    z
      .number({ error: 'Độ rộng hẻm phải là số.' })
      .check(
        z.refine(
          (n) => n === 0 || (n >= alley_width_m.min && n <= alley_width_m.max),
          `Độ rộng hẻm từ ${vi(alley_width_m.min)} đến ${vi(alley_width_m.max)} m, hoặc 0 nếu thửa nằm mặt tiền đường.`,
        ),
      ),
  ),
  floors: z.optional(range('Số tầng', '', floors).check(z.int('Số tầng phải là số nguyên.'))),
  image_ids: z.optional(z.array(z.string().check(z.maxLength(64))).check(z.maxLength(4, 'Tối đa 4 hình ảnh.'))),
})

/** `lat`/`lng` (optional, together): the centre of the map on screen, whose ward is searched first. */
export const searchQuery = z
  .object({
    q: z
      .string({ error: 'Vui lòng nhập từ khoá.' })
      .check(z.trim(), z.minLength(1, 'Vui lòng nhập từ khoá.'), z.maxLength(200, 'Từ khoá tối đa 200 ký tự.')),
    limit: z._default(
      z.coerce.number({ error: 'limit phải là số.' }).check(z.int('limit phải là số nguyên.'), z.gte(1), z.lte(50)),
      10,
    ),
    lat: z.optional(latLngQuery.shape.lat),
    lng: z.optional(latLngQuery.shape.lng),
  })
  .check(
    z.refine((v) => (v.lat === undefined) === (v.lng === undefined), {
      message: 'Cần cả vĩ độ và kinh độ của bản đồ.',
      path: ['lat'],
    }),
  )

export const parcelsQuery = z.object({
  province: z.optional(z.string().check(z.trim(), z.maxLength(100))),
  ward: z.optional(z.string().check(z.trim(), z.maxLength(100))),
  sheet_no: z.coerce
    .number({ error: 'Số tờ phải là số.' })
    .check(z.int('Số tờ phải là số nguyên.'), z.gte(0), z.lte(1_000_000)),
  parcel_no: z.coerce
    .number({ error: 'Số thửa phải là số.' })
    .check(z.int('Số thửa phải là số nguyên.'), z.gte(0), z.lte(10_000_000)),
})

const geometry = z.object({ type: z.string(), coordinates: z.unknown() })

/** One land-use purpose of a parcel; `area_m2` is null where the file gives mixed use without each part's area (`ODT+CLN`). */
export const landUsePart = z.object({ code: z.string(), name: z.string(), area_m2: z.nullable(z.number()) })

export const parcel = z.object({
  id: z.string(),
  sheet_no: z.int(),
  parcel_no: z.int(),
  area_m2: z.number(),
  land_use: z.array(landUsePart),
  address: z.string(),
  ward: z.string(),
  district: z.string(),
  province: z.string(),
  geometry,
})

/** A plan's decision: number and approval date. */
export const planDecision = z.object({ decision_no: z.string(), approved_at: z.string() })

export const zone = z.object({
  id: z.string(),
  plan_name: z.string(),
  plan_level: z.string(),
  approved_at: z.string(),
  decision_no: z.string(),
  land_use_code: z.string(),
  land_use_name: z.string(),
  color: z.string(),
  max_density_pct: z.nullable(z.number()),
  max_floors: z.nullable(z.number()),
  max_far: z.nullable(z.number()),
  /** True on the zones of the plan that governs the point (core/planning/plan-levels.ts). */
  governing: z.boolean(),
  /**
   * A newer approved plan of the same level covering the point replaces this zone's plan (kept as
   * history: "thay thế bởi QĐ … ngày …"); null for the plan in force. Additive: older answers have none.
   */
  replaced_by: z._default(z.nullable(planDecision), null),
  geometry,
})

/** A raster planning map (a georeferenced scan) covering the point; its tiles are at /tiles/raster/{id}/…. */
export const overlayRef = z.object({
  id: z.string(),
  name: z.string(),
  plan_level: z.string(),
  decision_no: z.string(),
  approved_at: z.string(),
  /**
   * A newer approved overlay of the same plan level at this point replaces it (kept as history: "thay
   * thế bởi QĐ … ngày …"); null for the one in force. Additive: older answers have none.
   */
  replaced_by: z._default(z.nullable(planDecision), null),
})
export type OverlayRef = z.infer<typeof overlayRef>

export const roadReserve = z.object({ road_name: z.string(), width_m: z.number(), affected_area_m2: z.number() })

export const location = z.object({
  lat: z.number(),
  lng: z.number(),
  vn2000: z.object({ x: z.number(), y: z.number(), zone_meridian: z.number() }),
})

export const source = z.object({ dataset: z.string(), name: z.string(), data_date: z.string() })

/** A unit from before 1 July 2025 merged into today's ward, with its old district and province. */
export const formerUnit = z.object({ ward: z.string(), district: z.string(), province: z.string() })

/**
 * (v2) The administrative unit at a point today and before the 1 July 2025 reorganisation, from the
 * national boundaries the server ships: `GET /api/places/at`, and `place` in planning and valuation.
 */
export const place = z.object({
  province: z.string(),
  ward: z.string(),
  before_2025: z.array(formerUnit),
  source: z.object({ name: z.string(), data_date: z.string() }),
})

export const planningData = z.object({
  /** Null when planning zones cover the point but no parcel lies within 2 m (plans without a cadastre). */
  parcel: z.nullable(parcel),
  zones: z.array(zone),
  // Answers kept offline from before overlays existed have none.
  overlays: z._default(z.array(overlayRef), []),
  road_reserves: z.array(roadReserve),
  location,
  source,
  /** (v2) Additive: answers kept from before it have none. */
  place: z.optional(z.nullable(place)),
})

export const pricePosition = z.enum(['VT1', 'VT2', 'VT3', 'VT4'])

export const statePrice = z.object({
  year: z.int(),
  street: z.string(),
  segment: z.string(),
  position: pricePosition,
  price_vnd_per_m2: z.number(),
  source: z.string(),
  // Contract version 2, additive (answers kept from before have none): the row used, as the table publishes it.
  /** The decision publishing the table ("79/2024/QĐ-UBND"), when the file states it. */
  decision_no: z.optional(z.nullable(z.string())),
  /** The date the table used took effect: the one in force on the valuation's date. */
  effective_from: z.optional(z.string()),
  segment_from: z.optional(z.string()),
  segment_to: z.optional(z.string()),
  /** The district (quận/huyện) whose sheet lists the row. */
  district: z.optional(z.string()),
  /** The row's prices by position, đ/m²; null where the table lists none. */
  prices: z.optional(
    z.object({
      VT1: z.nullable(z.number()),
      VT2: z.nullable(z.number()),
      VT3: z.nullable(z.number()),
      VT4: z.nullable(z.number()),
    }),
  ),
  /** How the row was chosen when it was not plainly the parcel's segment (a crossing not on the map). */
  note: z.optional(z.nullable(z.string())),
  /** Land-price adjustment coefficient K for the place and year, where the province publishes one. */
  k_coefficient: z.optional(z.nullable(z.number())),
  /** The position's price × K. */
  adjusted_vnd_per_m2: z.optional(z.nullable(z.number())),
})

export const confidenceLevel = z.enum(['cao', 'trung_binh', 'thap'])

/** One fact the estimate used, and where it came from: typed in the request, the parcel's record, or a default. */
export const valuationInput = z.object({
  field: z.enum(['area_m2', 'frontage_m', 'alley_width_m', 'floors', 'vt1']),
  value: z.nullable(z.number()),
  from: z.enum(['typed', 'parcel', 'default']),
  /** Typed values only: how much this value moved the estimate against the parcel's own (or default) value, in %. */
  effect_pct: z.optional(z.number()),
  /** The same in words: "Hẻm 6 m thay vì mặt tiền: −34 %". */
  note: z.optional(z.string()),
})

export const valuationMethod = z.object({
  method: z.enum(['so_sanh', 'thang_du', 'he_so']),
  vnd_per_m2: z.number(),
  /** Share of the estimate this method carries (all sum to 1); 0 for a figure shown only to compare. */
  weight: z.optional(z.number()),
  note: z.string(),
})

export const excludedSale = z.object({
  id: z.string(),
  date: z.string(),
  distance_m: z.number(),
  vnd_per_m2: z.number(),
  reason: z.string(),
})

export const marketEstimate = z.object({
  low_vnd: z.number(),
  mid_vnd: z.number(),
  high_vnd: z.number(),
  vnd_per_m2: z.number(),
  /** Calibrated: among held-out sales, at least this share had its true price inside [low, high]; never 1. */
  confidence: z.number().check(z.gte(0), z.lte(1)),
  method: z.string(),
  as_of: z.string(),
  // Additive fields (contract version 1): optional so results saved before them still read.
  confidence_level: z.optional(confidenceLevel),
  warnings: z.optional(z.array(z.string())),
  inputs: z.optional(z.array(valuationInput)),
  // Contract version 2, additive.
  /** The methods the estimate weighed (Decree 71/2024), each with its figure, share and how it was reached. */
  methods: z.optional(z.array(valuationMethod)),
  /** Sales near enough but left out, each with the reason (a location adjustment past the bound). */
  excluded: z.optional(z.array(excludedSale)),
})

/** One step from a sale to the target; `pct` in percent (−34.5 = −34,5 %), `vnd_per_m2` what it moved. */
export const adjustment = z.object({
  factor: z.enum(['location', 'alley', 'area', 'frontage', 'floors', 'time']),
  pct: z.number(),
  vnd_per_m2: z.number(),
  /** What differs, in words: "Hẻm 6 m thay vì mặt tiền". */
  note: z.optional(z.string()),
})

export const comparable = z.object({
  id: z.string(),
  lat: z.number(),
  lng: z.number(),
  date: z.string(),
  price_vnd: z.number(),
  vnd_per_m2: z.number(),
  area_m2: z.number(),
  distance_m: z.number(),
  // Additive fields (contract version 1): raw price × (1 + pct/100) of every adjustment = adjusted price.
  adjustments: z.optional(z.array(adjustment)),
  adjusted_vnd_per_m2: z.optional(z.number()),
  /** Share of the estimate this sale carries; all weights sum to 1. */
  weight: z.optional(z.number()),
  /** An earlier sale of the same parcel. */
  repeat_sale: z.optional(z.boolean()),
  /** A sale in the same row of houses (same street or alley, a few doors away). */
  same_row: z.optional(z.boolean()),
  frontage_m: z.optional(z.nullable(z.number())),
  alley_width_m: z.optional(z.nullable(z.number())),
  floors: z.optional(z.nullable(z.number())),
})

export const valuationData = z.object({
  parcel,
  state_price: z.nullable(statePrice),
  market_estimate: z.nullable(marketEstimate),
  comparables: z.array(comparable),
  location,
  source,
  /** v2: this is a reference figure, not a valuation certificate (chứng thư thẩm định giá). */
  disclaimer: z.optional(z.string()),
  /** (v2) Additive: answers kept from before it have none. */
  place: z.optional(z.nullable(place)),
})

export const searchResult = z.object({
  kind: z.enum(['address', 'street', 'ward', 'parcel']),
  id: z.string(),
  label: z.string(),
  detail: z.string(),
  lat: z.number(),
  lng: z.number(),
})
export const searchData = z.array(searchResult)
/**
 * `/api/parcels`: where a parcel with that tờ/thửa is, not what it is (not counted, so it answers no
 * more than a search does): its numbers, address and administrative names, and a point inside it for the
 * counted lookup that then gives the parcel's record.
 */
export const parcelRef = z.object({
  id: z.string(),
  sheet_no: z.int(),
  parcel_no: z.int(),
  address: z.string(),
  ward: z.string(),
  district: z.string(),
  province: z.string(),
  lat: z.number(),
  lng: z.number(),
})
export const parcelsData = z.array(parcelRef)

export const uploadData = z.array(
  z.object({ id: z.string(), url: z.string(), width: z.int(), height: z.int(), bytes: z.int() }),
)

export type LatLngQuery = z.infer<typeof latLngQuery>
export type ValuationBody = z.infer<typeof valuationBody>
export type Parcel = z.infer<typeof parcel>
export type ParcelRef = z.infer<typeof parcelRef>
export type Zone = z.infer<typeof zone>
export type PlanningData = z.infer<typeof planningData>
export type ValuationData = z.infer<typeof valuationData>
export type Comparable = z.infer<typeof comparable>
export type Adjustment = z.infer<typeof adjustment>
export type ValuationInput = z.infer<typeof valuationInput>
export type ConfidenceLevel = z.infer<typeof confidenceLevel>
export type ValuationMethod = z.infer<typeof valuationMethod>
export type ExcludedSale = z.infer<typeof excludedSale>
export type SearchResult = z.infer<typeof searchResult>
export type Place = z.infer<typeof place>
export type FormerUnit = z.infer<typeof formerUnit>
export type UploadData = z.infer<typeof uploadData>
