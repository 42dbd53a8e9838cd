import type { ImportKind } from '../types.ts'
import { areas } from './areas.ts'
import { comparables } from './comparables.ts'
import type { Kind } from './kind.ts'
import { parcels } from './parcels.ts'
import { planning } from './planning.ts'
import { priceCoefficients } from './price-coefficients.ts'
import { prices } from './prices.ts'
import { residualCosts } from './residual-costs.ts'
import { roads } from './roads.ts'

export const kinds: Record<ImportKind, Kind> = {
  parcels,
  planning,
  roads,
  prices,
  'price-coefficients': priceCoefficients,
  'residual-costs': residualCosts,
  comparables,
  areas,
}
