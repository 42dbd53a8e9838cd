import { foldVietnamese } from '../text/fold.ts'

/**
 * Planning levels, the most detailed first (docs/api.md): a detailed plan QHCT 1/500 refines the zoning
 * plan QHPK 1/2000, which refines the general plan QHC. This order decides which plan governs a point,
 * on the server, in the app's offline answer and in the tiles' drawing order alike.
 */
export const PLAN_LEVELS = ['QHCT 1/500', 'QHPK 1/2000', 'QHC'] as const
export type PlanLevel = (typeof PLAN_LEVELS)[number]

/** 0 for the most detailed level; an unknown level ranks after every known one. */
export function planLevelRank(level: string | null | undefined): number {
  const i = PLAN_LEVELS.indexOf(level as PlanLevel)
  return i === -1 ? PLAN_LEVELS.length : i
}

/** The same rank as SQL over a column holding the level, for orderings done in the database. */
export function planLevelRankSql(column: string): string {
  return `case ${column} ${PLAN_LEVELS.map((l, i) => `when '${l}' then ${i}`).join(' ')} else ${PLAN_LEVELS.length} end`
}

/**
 * A level as data files write it: "QHCT", "1/500", "Quy hoạch chi tiết" → QHCT 1/500; "QHPK", "1/2000",
 * "phân khu" → QHPK 1/2000; "QHC", "quy hoạch chung", "1/5000", "1/10000" → QHC. Null when none fits.
 */
export function parsePlanLevel(text: string): PlanLevel | null {
  const f = foldVietnamese(text)
  if (/qhct|chi tiet|1\s*\/\s*500\b/.test(f)) return 'QHCT 1/500'
  if (/qhpk|phan khu|1\s*\/\s*2\.?000\b/.test(f)) return 'QHPK 1/2000'
  if (/\bqhc\b|qhc\s*\d|quy hoach chung|1\s*\/\s*(5|10|25)\.?000\b/.test(f)) return 'QHC'
  return null
}

/** A plan's decision, as the card names it: "thay thế bởi QĐ {decision_no} ngày {approved_at}". */
export type PlanDecision = { decision_no: string; approved_at: string }

/**
 * Plan versions among what covers one place: of the plans of one level, the newest approval is in force
 * and each older one is replaced by it (both are kept and listed, the older as history). Null for the
 * one in force and for plans no newer one of their level covers.
 */
export function replacedBy<T extends PlanDecision & { plan_level: string }>(
  items: readonly T[],
): (T & { replaced_by: PlanDecision | null })[] {
  const newest = new Map<string, T>()
  for (const it of items) {
    const seen = newest.get(it.plan_level)
    if (!seen || it.approved_at > seen.approved_at) newest.set(it.plan_level, it)
  }
  return items.map((it) => {
    const current = newest.get(it.plan_level)!
    const replaced =
      current.approved_at > it.approved_at
        ? { decision_no: current.decision_no, approved_at: current.approved_at }
        : null
    return { ...it, replaced_by: replaced }
  })
}

type Orderable = { id: string; plan_name: string; plan_level: string; approved_at: string; decision_no: string }

const planKey = (z: Orderable) => JSON.stringify([z.plan_name, z.plan_level, z.decision_no, z.approved_at])

/** Governing order: the most detailed level first, then the newest approval, then by id for a stable answer. */
export function compareZones(a: Orderable, b: Orderable): number {
  return (
    planLevelRank(a.plan_level) - planLevelRank(b.plan_level) ||
    (a.approved_at < b.approved_at ? 1 : a.approved_at > b.approved_at ? -1 : 0) ||
    a.id.localeCompare(b.id, 'en', { numeric: true })
  )
}

/**
 * The zones covering a point, governing first, with `governing: true` on every zone of the plan that
 * governs (a point on a shared edge may lie in two zones of it) and false on the higher-level plans.
 */
export function orderZones<T extends Orderable>(zones: readonly T[]): (T & { governing: boolean })[] {
  const sorted = [...zones].sort(compareZones)
  const first = sorted[0]
  const governingPlan = first ? planKey(first) : null
  return sorted.map((z) => ({ ...z, governing: planKey(z) === governingPlan }))
}
