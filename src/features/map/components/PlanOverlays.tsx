import { Text } from '@mantine/core'
import type { OverlayRef } from '#core/contract/lookups.ts'
import { formatDate } from '../../../lib/format/format.ts'

const decision = (d: { decision_no: string; approved_at: string }) =>
  `QĐ ${d.decision_no} ngày ${formatDate(d.approved_at)}`

/**
 * The scanned planning maps under the point, named so the user can turn them on in the layers panel.
 * Of one plan level the newest approval is in force; an older one stays listed as history.
 */
export function PlanOverlays({ overlays }: { overlays: readonly OverlayRef[] }) {
  if (overlays.length === 0) return null
  return (
    <div data-testid="result-overlays">
      <h4>Bản đồ quy hoạch (ảnh quét) tại điểm này</h4>
      <ul style={{ margin: 0, paddingLeft: 18 }}>
        {overlays.map((o) => {
          const older = overlays.find(
            (x) => x.replaced_by?.decision_no === o.decision_no && x.replaced_by.approved_at === o.approved_at,
          )
          return (
            <li key={o.id} data-testid={o.replaced_by ? 'overlay-history' : 'overlay-in-force'}>
              <Text size="sm" span fw={o.replaced_by ? 400 : 600} td={o.replaced_by ? 'line-through' : undefined}>
                {o.name}
              </Text>
              <Text size="sm" span>
                {' '}
                — {o.plan_level}, {decision(o)}
              </Text>
              {o.replaced_by && (
                <Text size="xs" c="dimmed">
                  Thay thế bởi {decision(o.replaced_by)}
                </Text>
              )}
              {older && (
                <Text size="xs" c="dimmed">
                  Đang áp dụng; đã thay thế {decision(older)}
                </Text>
              )}
            </li>
          )
        })}
      </ul>
      <Text size="xs" c="dimmed">
        Bật trong bảng Lớp bản đồ để xem đè lên bản đồ.
      </Text>
    </div>
  )
}
