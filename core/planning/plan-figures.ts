/**
 * The most floor area a plan's density and height allow on a lot, as a FAR (floor area over lot area):
 * density × floors. A plan that states a larger FAR cannot be built as written (its figures disagree).
 */
export function buildableFar(densityPct: number | null, floors: number | null): number | null {
  return densityPct === null || floors === null ? null : (densityPct * floors) / 100
}

/** Whether a zone's FAR is more than its density and floors could build (figures rounded to a hundredth agree). */
export function farExceedsBuildable(z: {
  max_density_pct: number | null
  max_floors: number | null
  max_far: number | null
}): boolean {
  const buildable = buildableFar(z.max_density_pct, z.max_floors)
  return buildable !== null && z.max_far !== null && z.max_far > buildable + 0.005
}
