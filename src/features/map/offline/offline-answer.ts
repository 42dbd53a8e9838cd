import type { FeatureLike } from 'ol/Feature'
import { planLevelRank, replacedBy, type PlanDecision } from '#core/planning/plan-levels.ts'
import type OlMap from 'ol/Map'
import type { MapController } from '../engine/map-controller.ts'
import type { Point } from '../../../lib/map-url.ts'
import { getEntry, storedPlanningAt } from '../../history/index.ts'
import { areaCovering, listAreas } from '../../offline/index.ts'
import type { PlanningData } from '#core/contract/lookups.ts'
import { vietnamDay } from '#core/time/vietnam-time.ts'

/** What the drawn tiles say at a point: the parcel's numbers and main use, the planning zones' codes and colours. */
export type TileFacts = {
  parcel: { id: string | null; sheetNo: number | null; parcelNo: number | null; landUse: string | null } | null
  zones: {
    code: string
    color: string
    block: string | null
    level: string | null
    maxFloors: number | null
    maxDensityPct: number | null
    maxFar: number | null
    /** The plan's decision; tiles saved before the tiles carried it have none. */
    decision: PlanDecision | null
    /** A newer plan of the same level drawn at this point replaces this one's. */
    replacedBy: PlanDecision | null
  }[]
}

/** A tap answered without the server; `saved` says whether a saved area covers the point. */
export type OfflineTapState =
  | { kind: 'stored'; point: Point; data: PlanningData; at: number }
  | { kind: 'tiles'; point: Point; facts: TileFacts; saved: boolean }
  | { kind: 'none'; point: Point; saved: boolean }

const num = (v: unknown) =>
  typeof v === 'number' && Number.isFinite(v)
    ? v
    : typeof v === 'string' && v !== '' && Number.isFinite(Number(v))
      ? Number(v)
      : null
const str = (v: unknown) => (v === undefined || v === null || v === '' ? null : String(v))

/** The facts in the features under a pixel, from the map's parcels and planning layers (the saved tiles when offline). */
export function tileFactsFrom(features: readonly FeatureLike[]): TileFacts {
  const parcel = features.find((f) => f.get('layer') === 'parcels')
  const drawn = features
    .filter((f) => f.get('layer') === 'zones')
    .map((f) => ({
      code: String(f.get('land_use_code') ?? ''),
      color: String(f.get('color') ?? '#cccccc'),
      block: str(f.get('block_code')),
      level: str(f.get('plan_level')),
      maxFloors: num(f.get('max_floors')),
      maxDensityPct: num(f.get('max_density_pct')),
      maxFar: num(f.get('max_far')),
      plan_level: str(f.get('plan_level')) ?? '',
      decision_no: str(f.get('decision_no')) ?? '',
      approved_at: str(f.get('approved_at')) ?? '',
    }))
  // The most detailed plan governs, then the newest approval, as on the server (core/planning/plan-levels.ts).
  const zones = replacedBy(drawn)
    .sort(
      (a, b) =>
        planLevelRank(a.level) - planLevelRank(b.level) ||
        (a.approved_at < b.approved_at ? 1 : a.approved_at > b.approved_at ? -1 : 0),
    )
    .map(({ plan_level: _, decision_no, approved_at, replaced_by, ...z }) => ({
      ...z,
      decision: approved_at ? { decision_no, approved_at } : null,
      replacedBy: replaced_by,
    }))
  return {
    parcel: parcel
      ? {
          id: str(parcel.get('id')),
          sheetNo: num(parcel.get('sheet_no')),
          parcelNo: num(parcel.get('parcel_no')),
          landUse: str(parcel.get('land_use')),
        }
      : null,
    zones,
  }
}

function readTileFacts(map: OlMap, pixel: number[]): TileFacts {
  const features = map.getFeaturesAtPixel(pixel, {
    layerFilter: (l) => l.get('name') === 'parcels' || l.get('name') === 'planning',
    hitTolerance: 2,
  })
  return tileFactsFrom(features)
}

/**
 * A tap answered without the server: the stored result for the parcel when the history has one (by
 * the parcel id in the drawn tiles, else by its outline); otherwise what the drawn tiles show;
 * otherwise nothing to show.
 */
export async function offlineAnswer(ctrl: MapController, point: Point): Promise<OfflineTapState> {
  const pixel = ctrl.pixelOf(point)
  const stored = await storedPlanningAt(point, pixel ? ctrl.parcelIdAt(pixel) : null)
  if (stored) return { kind: 'stored', point, data: stored.result, at: stored.at }
  const facts = pixel ? readTileFacts(ctrl.map, pixel) : null
  const saved = areaCovering(await listAreas(), point.lat, point.lng) !== undefined
  return facts && (facts.parcel || facts.zones.length > 0)
    ? { kind: 'tiles', point, facts, saved }
    : { kind: 'none', point, saved }
}

/** The stored result for the parcel at a point when it was looked up today (Vietnam's day): reopening it costs no lookup. */
export async function storedToday(ctrl: MapController, point: Point): Promise<OfflineTapState | null> {
  const pixel = ctrl.pixelOf(point)
  const stored = await storedPlanningAt(point, pixel ? ctrl.parcelIdAt(pixel) : null)
  if (!stored || vietnamDay(new Date(stored.at)) !== vietnamDay(new Date())) return null
  return { kind: 'stored', point, data: stored.result, at: stored.at }
}

/** A history entry chosen to be shown on the map, as a stored result (a valuation shows its parcel's planning). */
export async function storedEntry(id: string): Promise<OfflineTapState | null> {
  const e = await getEntry(id)
  if (!e) return null
  const point = { lat: e.lat, lng: e.lng }
  if (e.kind === 'planning') return { kind: 'stored', point, data: e.result, at: e.at }
  return e.result.planning ? { kind: 'stored', point, data: e.result.planning.data, at: e.result.planning.at } : null
}
