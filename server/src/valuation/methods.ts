import type { Comparable, ValuationMethod } from '#core/contract/lookups.ts'
import { MIN_COMPARABLES } from './market.ts'
import { weightedQuantile } from './market-model.ts'

/**
 * The valuation methods of Decree 71/2024 side by side, and how the estimate weighs them: comparison
 * (so sánh) from the adjusted sales; residual (thặng dư), what the land is worth built out to the
 * governing plan's limits at the area's price per m² of floor, less the build cost and the developer's
 * margin (Circular 42/2024: the best use is the one the approved plan allows); and the coefficient
 * method (hệ số), the state price × K, where the province publishes K.
 *
 * With at least MIN_COMPARABLES sales the comparison method is the estimate and the others are shown to
 * compare (weight 0): the sales are market evidence, the others rest on a plan's limits, assumed costs
 * or an administrative coefficient. With fewer, comparison carries half and the others share the rest.
 */

export type ZoneLimits = { max_density_pct: number | null; max_floors: number | null; max_far: number | null }
export type ResidualCosts = { build_cost_vnd_per_m2: number; developer_margin: number; source: string }

const million = (v: number) => `${(v / 1e6).toLocaleString('vi-VN', { maximumFractionDigits: 1 })} triệu`
const num = (v: number) => v.toLocaleString('vi-VN', { maximumFractionDigits: 2 })

/** The plan's floor-area ratio: its FAR, else density × floors. */
export function farOf(z: ZoneLimits): number | null {
  if (z.max_far !== null && z.max_far > 0) return z.max_far
  if (z.max_density_pct !== null && z.max_floors !== null && z.max_density_pct > 0 && z.max_floors > 0)
    return (z.max_density_pct / 100) * z.max_floors
  return null
}

/**
 * The area's price per m² of floor: each sale with its floors known, its raw price per m² of land
 * divided by its floors and brought to the estimate's date by its time adjustment; the weighted median.
 */
export function floorPrice(comparables: readonly Comparable[]): number | null {
  const values = comparables
    .filter((c) => (c.floors ?? 0) > 0)
    .map((c) => {
      const time = c.adjustments?.find((a) => a.factor === 'time')?.pct ?? 0
      return { v: ((c.vnd_per_m2 * (1 + time / 100)) / (c.floors as number)) as number, w: c.weight ?? 1 }
    })
  return values.length === 0 ? null : weightedQuantile(values, 0.5)
}

export function residual(
  zone: ZoneLimits | null,
  comparables: readonly Comparable[],
  costs: ResidualCosts,
): Omit<ValuationMethod, 'weight'> | null {
  const far = zone ? farOf(zone) : null
  const perFloor = floorPrice(comparables)
  if (far === null || perFloor === null) return null
  const value = far * (perFloor * (1 - costs.developer_margin) - costs.build_cost_vnd_per_m2)
  if (!(value > 0)) return null
  return {
    method: 'thang_du',
    vnd_per_m2: Math.round(value / 1000) * 1000,
    note:
      `Hệ số sử dụng đất ${num(far)} theo quy hoạch × (giá ${million(perFloor)} đ/m² sàn trong khu vực × ${num(1 - costs.developer_margin)} ` +
      `sau lợi nhuận nhà đầu tư ${Math.round(costs.developer_margin * 100)} % − chi phí xây dựng ${million(costs.build_cost_vnd_per_m2)} đ/m² sàn). Chi phí: ${costs.source}.`,
  }
}

export function coefficient(
  state: { price_vnd_per_m2: number; position: string; k_coefficient?: number | null | undefined } | null,
): Omit<ValuationMethod, 'weight'> | null {
  const k = state?.k_coefficient
  if (!state || k === null || k === undefined) return null
  return {
    method: 'he_so',
    vnd_per_m2: Math.round((state.price_vnd_per_m2 * k) / 1000) * 1000,
    note: `Giá đất nhà nước ${state.position} ${million(state.price_vnd_per_m2)} đ/m² × hệ số điều chỉnh giá đất K = ${num(k)}.`,
  }
}

/** The methods with their weights, and the estimate per m² they give (the weighted geometric mean). */
export function weighMethods(
  comparison: Omit<ValuationMethod, 'weight'>,
  comparables: number,
  others: (Omit<ValuationMethod, 'weight'> | null)[],
): { methods: ValuationMethod[]; vnd_per_m2: number } {
  const rest = others.filter((m): m is Omit<ValuationMethod, 'weight'> => m !== null)
  const main = comparables >= MIN_COMPARABLES || rest.length === 0 ? 1 : 0.5
  const methods: ValuationMethod[] = [
    { ...comparison, weight: main },
    ...rest.map((m) => ({ ...m, weight: main === 1 ? 0 : (1 - main) / rest.length })),
  ]
  const log = methods.reduce((a, m) => a + (m.weight ?? 0) * Math.log(m.vnd_per_m2), 0)
  return { methods, vnd_per_m2: Math.round(Math.exp(log) / 1000) * 1000 }
}

export const DISCLAIMER =
  'Đây là giá tham khảo do ứng dụng ước tính từ dữ liệu công khai, không phải chứng thư thẩm định giá; chỉ doanh nghiệp thẩm định giá được cấp phép mới phát hành chứng thư (Luật Giá 2023, Nghị định 71/2024/NĐ-CP).'
