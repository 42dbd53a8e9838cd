import type { PlanningData } from '#core/contract/lookups.ts'
import { mixedUseName } from '#core/planning/land-use.ts'
import { formatArea } from '../../../lib/format/format.ts'

/**
 * The parcel's purposes, each with its area; mixed use written without each part's area (`ODT+CLN`)
 * is said as a person says it ("đất ở kết hợp cây lâu năm"), the codes listed under it.
 */
export function LandUseList({ parts }: { parts: NonNullable<PlanningData['parcel']>['land_use'] }) {
  if (parts.length === 0) return 'Chưa có thông tin'
  const mixed = parts.length > 1 && parts.some((u) => u.area_m2 === null)
  return (
    <>
      {mixed && (
        <p className="qh-mixed-use" data-testid="mixed-use">
          Sử dụng kết hợp: {mixedUseName(parts.map((u) => u.code))} (hồ sơ không tách diện tích từng loại)
        </p>
      )}
      <ul>
        {parts.map((u) => (
          <li key={u.code}>
            {u.code} — {u.name}
            {u.area_m2 === null ? '' : `: ${formatArea(u.area_m2)}`}
          </li>
        ))}
      </ul>
    </>
  )
}
