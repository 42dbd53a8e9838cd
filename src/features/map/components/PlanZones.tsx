import { Group, Text } from '@mantine/core'
import type { PlanningData } from '#core/contract/lookups.ts'
import { formatDate, formatNumber } from '../../../lib/format/format.ts'
import { planGroups } from '../selection.ts'

type Zone = PlanningData['zones'][number]

function ZoneFacts({ z }: { z: Zone }) {
  return (
    <section className="qh-zone" aria-label={`Ô quy hoạch ${z.land_use_code}`} data-testid={z.governing ? 'governing-zone' : 'higher-zone'}>
      <Group gap={8} wrap="nowrap" mb={6}>
        <span className="qh-swatch" style={{ background: z.color }} aria-hidden />
        <Text fw={700}>
          {z.land_use_code} — {z.land_use_name}
        </Text>
      </Group>
      <dl>
        <dt>Mật độ xây dựng tối đa</dt>
        <dd>{z.max_density_pct === null ? 'Không quy định' : `${formatNumber(z.max_density_pct, 1)}%`}</dd>
        <dt>Tầng cao tối đa</dt>
        <dd>{z.max_floors === null ? 'Không quy định' : `${z.max_floors} tầng`}</dd>
        <dt>Hệ số sử dụng đất</dt>
        <dd>{z.max_far === null ? 'Không quy định' : formatNumber(z.max_far, 2)}</dd>
        <dt>Đồ án</dt>
        <dd>
          {z.plan_name} ({z.plan_level})
        </dd>
        <dt>Quyết định</dt>
        <dd>
          {z.decision_no}, ngày {formatDate(z.approved_at)}
        </dd>
      </dl>
    </section>
  )
}

/**
 * The plan that governs the point (the most detailed, then the newest), and apart from it the
 * higher-level plans that also cover the point, which it refines.
 */
export function PlanZones({ zones, headingId }: { zones: readonly Zone[]; headingId: string }) {
  if (zones.length === 0) return <Text size="sm">Chưa có đồ án quy hoạch nào phủ điểm này trong dữ liệu.</Text>
  const { governing, higher } = planGroups(zones)
  return (
    <>
      <h4 id={`${headingId}-governing`}>Đồ án đang áp dụng</h4>
      <div aria-labelledby={`${headingId}-governing`} data-testid="governing-plan">
        {governing.map((z) => (
          <ZoneFacts key={z.id} z={z} />
        ))}
      </div>
      {higher.length > 0 && (
        <>
          <h4 id={`${headingId}-higher`}>Quy hoạch cấp trên cũng phủ điểm này</h4>
          <Text size="xs" c="dimmed" mb={4}>
            Đồ án đang áp dụng cụ thể hoá các quy hoạch này; chỉ tiêu của nó được dùng khi xin phép xây dựng.
          </Text>
          <div aria-labelledby={`${headingId}-higher`} data-testid="higher-plans">
            {higher.map((z) => (
              <ZoneFacts key={z.id} z={z} />
            ))}
          </div>
        </>
      )}
    </>
  )
}
