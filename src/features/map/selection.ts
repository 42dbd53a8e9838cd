import { placeLine } from '#core/text/place-line.ts'
import type { Place, PlanningData } from '#core/contract/lookups.ts'
import { orderZones, replacedBy } from '#core/planning/plan-levels.ts'
import { foldVietnamese } from '#core/text/fold.ts'
import { residentialCodes } from './land-use.ts'
import type { Point } from '../../lib/map-url.ts'

/** The point being looked up and where that stands. */
export type Selection =
  | { point: Point; status: 'loading'; waitingForLogin: boolean }
  /** Opened from a shared link while logged out: the lookup counts, so it waits for the user to ask. */
  | { point: Point; status: 'idle' }
  | { point: Point; status: 'ready'; result: PlanningData }
  /** No parcel and no plan at the point: the ward and province there (null outside Việt Nam), which cost no lookup. */
  | { point: Point; status: 'no-data'; place: Place | null }

/** Whether the dataset says it is simulated (the demo data names itself "Dữ liệu mô phỏng"). */
export function isSimulated(source: PlanningData['source']): boolean {
  return foldVietnamese(`${source.name} ${source.dataset}`).includes('mo phong')
}

/** The verdict a buyer looks for first: how much of the parcel a road reserve takes, if any. */
export function reserveVerdict(result: Pick<PlanningData, 'road_reserves'>): { affected: boolean; totalM2: number } {
  const totalM2 = Math.round(result.road_reserves.reduce((sum, r) => sum + r.affected_area_m2, 0) * 10) / 10
  return { affected: totalM2 > 0, totalM2 }
}

/** Zones at the point planned for something other than housing, when the parcel is used for housing. */
export function nonResidentialZones(result: Pick<PlanningData, 'parcel' | 'zones'>): PlanningData['zones'] {
  const housing = result.parcel?.land_use.some((u) => residentialCodes.has(u.code)) ?? false
  return housing ? planGroups(result.zones).governing.filter((z) => !residentialCodes.has(z.land_use_code)) : []
}

type Zone = PlanningData['zones'][number]

/**
 * The zones of the governing plan; older versions that a newer plan of their level replaces here (kept
 * as history); and the higher-level plans that also cover the point. Results stored before the server
 * flagged `governing` or `replaced_by` are ordered and versioned here by the same rules.
 */
export function planGroups(zones: readonly Zone[]): { governing: Zone[]; history: Zone[]; higher: Zone[] } {
  const flagged = zones.some((z) => typeof z.governing === 'boolean') ? zones : orderZones(zones)
  const versioned = flagged.some((z) => z.replaced_by !== undefined) ? flagged : replacedBy(flagged)
  return {
    governing: versioned.filter((z) => z.governing),
    history: versioned.filter((z) => !z.governing && z.replaced_by),
    higher: versioned.filter((z) => !z.governing && !z.replaced_by),
  }
}

/** Distinct plans among the zones: two or more make a comparison worth offering. */
export function planCount(zones: readonly Zone[]): number {
  return new Set(zones.map((z) => `${z.plan_level}|${z.decision_no}|${z.approved_at}`)).size
}

/** The address with ward, district and province added unless it already names them. */
export function fullAddress(
  p: Pick<NonNullable<PlanningData['parcel']>, 'address' | 'ward' | 'district' | 'province'>,
): string {
  return placeLine([p.address, p.ward, p.district, p.province])
}
