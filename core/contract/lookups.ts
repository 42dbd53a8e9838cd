import { z } from 'zod/mini'

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

const optionalPositive = (label: string, max: number) =>
  z.optional(
    z
      .number({ error: `${label} phải là số.` })
      .check(z.positive(`${label} phải lớn hơn 0.`), z.lte(max, `${label} tối đa ${max}.`)),
  )

export const valuationBody = z.object({
  lat: z.number({ error: 'Vĩ độ phải là số.' }).check(z.gte(-90), z.lte(90)),
  lng: z.number({ error: 'Kinh độ phải là số.' }).check(z.gte(-180), z.lte(180)),
  area_m2: optionalPositive('Diện tích', 1_000_000),
  frontage_m: optionalPositive('Mặt tiền', 1000),
  /** 0 or absent-with-frontage means the parcel fronts the street. */
  alley_width_m: z.optional(
    z
      .number({ error: 'Độ rộng hẻm phải là số.' })
      .check(z.gte(0, 'Độ rộng hẻm không âm.'), z.lte(100, 'Độ rộng hẻm tối đa 100 m.')),
  ),
  floors: z.optional(
    z
      .number({ error: 'Số tầng phải là số.' })
      .check(z.int('Số tầng phải là số nguyên.'), z.gte(0), z.lte(100, 'Số tầng tối đa 100.')),
  ),
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

export const landUsePart = z.object({ code: z.string(), name: z.string(), area_m2: z.number() })

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

export const statePrice = z.object({
  year: z.int(),
  street: z.string(),
  segment: z.string(),
  position: z.enum(['VT1', 'VT2', 'VT3', 'VT4']),
  price_vnd_per_m2: z.number(),
  source: z.string(),
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
export const parcelsData = z.array(parcel)

export const uploadData = z.array(
  z.object({ id: z.string(), url: z.string(), width: z.int(), height: z.int(), bytes: z.int() }),
)

export type LatLngQuery = z.infer<typeof latLngQuery>
export type ValuationBody = z.infer<typeof valuationBody>
export type Parcel = z.infer<typeof parcel>
export type Zone = z.infer<typeof zone>
export type PlanningData = z.infer<typeof planningData>
export type ValuationData = z.infer<typeof valuationData>
export type Comparable = z.infer<typeof comparable>
export type Adjustment = z.infer<typeof adjustment>
export type ValuationInput = z.infer<typeof valuationInput>
export type ConfidenceLevel = z.infer<typeof confidenceLevel>
export type SearchResult = z.infer<typeof searchResult>
export type Place = z.infer<typeof place>
export type FormerUnit = z.infer<typeof formerUnit>
export type UploadData = z.infer<typeof uploadData>
