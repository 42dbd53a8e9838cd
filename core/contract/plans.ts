import { z } from 'zod/mini'
import { insideVietnam } from '../geo/box.ts'
import { bboxParam, latLngQuery, planDecision } from './lookups.ts'

const geometry = z.object({ type: z.string(), coordinates: z.unknown() })

/**
 * `GET /api/plans/compare`: the parcel at `lat`,`lng` or the area `bbox`, and optionally the two plans
 * to compare (`from` the older, `to` the newer); without them the two newest versions of the most
 * detailed level found there.
 */
const planId = z.optional(z.string().check(z.regex(/^\d{1,18}$/, 'Mã đồ án không hợp lệ.')))
export const planCompareQuery = z
  .object({
    lat: z.optional(latLngQuery.shape.lat),
    lng: z.optional(latLngQuery.shape.lng),
    // A planar lon/lat box in Việt Nam: what is measured is what is queried (no antimeridian, no hemisphere).
    bbox: z.optional(
      bboxParam.check(z.refine(insideVietnam, 'Khu vực so sánh phải nằm trong lãnh thổ Việt Nam (tây,nam,đông,bắc).')),
    ),
    from: planId,
    to: planId,
  })
  .check(
    z.refine((q) => (q.lat === undefined) === (q.lng === undefined), {
      message: 'Cần cả vĩ độ và kinh độ.',
      path: ['lat'],
    }),
    z.refine((q) => (q.lat !== undefined) !== (q.bbox !== undefined), {
      message: 'Chọn một thửa (lat, lng) hoặc một khu vực (bbox).',
      path: ['bbox'],
    }),
    z.refine((q) => (q.from === undefined) === (q.to === undefined), {
      message: 'Cần chọn cả hai đồ án để so sánh.',
      path: ['to'],
    }),
    z.refine((q) => q.from === undefined || q.from !== q.to, {
      message: 'Hãy chọn hai đồ án khác nhau.',
      path: ['to'],
    }),
  )
export type PlanCompareQuery = z.infer<typeof planCompareQuery>

/** A plan with zones in the compared place: its decision, and what replaced it among the plans there. */
export const planVersion = z.object({
  id: z.string(),
  name: z.string(),
  plan_level: z.string(),
  decision_no: z.string(),
  approved_at: z.string(),
  replaced_by: z.nullable(planDecision),
  /** m² of the compared place its zones cover. */
  area_m2: z.number(),
})
export type PlanVersion = z.infer<typeof planVersion>

export const compareFields = ['land_use', 'max_density_pct', 'max_floors', 'max_far'] as const
export type CompareField = (typeof compareFields)[number]

/**
 * One change between the two plans: where `field` had the value `from` in the older plan and `to`
 * in the newer one, its area and shape. Land use is a code (`from_name`/`to_name` name it); the
 * others are numbers, null where the plan sets none ("không quy định").
 */
export const planChange = z.object({
  field: z.enum(compareFields),
  from: z.nullable(z.union([z.string(), z.number()])),
  to: z.nullable(z.union([z.string(), z.number()])),
  from_name: z.nullable(z.string()),
  to_name: z.nullable(z.string()),
  area_m2: z.number(),
  geometry,
})
export type PlanChange = z.infer<typeof planChange>

/** A road reserve (lộ giới) of either plan in the place: its width in each, and the land it newly takes or frees. */
export const reserveChange = z.object({
  road_name: z.string(),
  from_width_m: z.nullable(z.number()),
  to_width_m: z.nullable(z.number()),
  /** m² inside the newer plan's reserve and outside every reserve of the older one. */
  added_m2: z.number(),
  /** m² inside the older plan's reserve and outside every reserve of the newer one. */
  removed_m2: z.number(),
})
export type ReserveChange = z.infer<typeof reserveChange>

/** A zone of one side clipped to the place, to draw the two plans side by side. */
export const zonePiece = z.object({ land_use_code: z.string(), land_use_name: z.string(), color: z.string(), geometry })

export const planComparison = z.object({
  changes: z.array(planChange),
  road_reserves: z.array(reserveChange),
  /** m² where both plans set the same land use, density, floors and FAR. */
  unchanged_m2: z.number(),
  /** m² only the older plan covers, and only the newer one. */
  only_from_m2: z.number(),
  only_to_m2: z.number(),
  pieces: z.object({ from: z.array(zonePiece), to: z.array(zonePiece) }),
})
export type PlanComparison = z.infer<typeof planComparison>

export const compareData = z.object({
  region: z.object({
    kind: z.enum(['parcel', 'area']),
    parcel: z.nullable(z.object({ id: z.string(), sheet_no: z.int(), parcel_no: z.int(), address: z.string() })),
    area_m2: z.number(),
    geometry,
  }),
  /** Every plan with zones in the place, the governing order (most detailed level first, then newest). */
  plans: z.array(planVersion),
  from: z.nullable(z.string()),
  to: z.nullable(z.string()),
  /** Null when fewer than two plans are there, or none was chosen and no level has two versions. */
  comparison: z.nullable(planComparison),
})
export type CompareData = z.infer<typeof compareData>
