import { Text } from '@mantine/core'
import type { OverlayRef } from '#core/contract/lookups.ts'
import { formatDate } from '../../../lib/format/format.ts'

/** The scanned planning maps under the point, named so the user can turn them on in the layers panel. */
export function PlanOverlays({ overlays }: { overlays: readonly OverlayRef[] }) {
  if (overlays.length === 0) return null
  return (
    <div data-testid="result-overlays">
      <h4>Bản đồ quy hoạch (ảnh quét) tại điểm này</h4>
      <ul style={{ margin: 0, paddingLeft: 18 }}>
        {overlays.map((o) => (
          <li key={o.id}>
            <Text size="sm" span fw={600}>
              {o.name}
            </Text>
            <Text size="sm" span>
              {' '}
              — {o.plan_level}, QĐ {o.decision_no} ngày {formatDate(o.approved_at)}
            </Text>
          </li>
        ))}
      </ul>
      <Text size="xs" c="dimmed">
        Bật trong bảng Lớp bản đồ để xem đè lên bản đồ.
      </Text>
    </div>
  )
}
