import { Group, Text } from '@mantine/core'
import type { PlanningData } from '#core/contract/lookups.ts'
import { farExceedsBuildable } from '#core/planning/plan-figures.ts'
import { formatDate, formatNumber } from '../../../lib/format/format.ts'
import { planGroups } from '../selection.ts'

type Zone = PlanningData['zones'][number]

const decision = (d: { decision_no: string; approved_at: string }) =>
  `QĐ ${d.decision_no} ngày ${formatDate(d.approved_at)}`

function ZoneFacts({ z }: { z: Zone }) {
  return (
    <section
      className="qh-zone"
      aria-label={`Ô quy hoạch ${z.land_use_code}`}
      data-testid={z.governing ? 'governing-zone' : z.replaced_by ? 'history-zone' : 'higher-zone'}
      data-replaced={z.replaced_by ? true : undefined}
    >
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
        {farExceedsBuildable(z) && (
          // Real plans can disagree with themselves: the figures stay as published, with the disagreement said.
          <dd role="note" className="qh-zone-warning">
            Hệ số sử dụng đất lớn hơn mật độ × tầng cao: kiểm tra lại đồ án
          </dd>
        )}
        <dt>Đồ án</dt>
        <dd>
          {z.plan_name} ({z.plan_level})
        </dd>
        <dt>Quyết định</dt>
        <dd>
          {z.decision_no}, ngày {formatDate(z.approved_at)}
        </dd>
        {z.replaced_by && (
          <>
            <dt>Hiệu lực</dt>
            <dd>Thay thế bởi {decision(z.replaced_by)}</dd>
          </>
        )}
      </dl>
    </section>
  )
}

/**
 * The plan that governs the point (the most detailed, then the newest) with when it was approved and the
 * older version it replaced; apart, the older versions kept as history and the higher-level plans that
 * also cover the point, which it refines.
 */
export function PlanZones({ zones, headingId }: { zones: readonly Zone[]; headingId: string }) {
  if (zones.length === 0) return <Text size="sm">Chưa có đồ án quy hoạch nào phủ điểm này trong dữ liệu.</Text>
  const { governing, history, higher } = planGroups(zones)
  const first = governing[0]
  const replaced = first
    ? history.find(
        (z) => z.replaced_by?.decision_no === first.decision_no && z.replaced_by.approved_at === first.approved_at,
      )
    : undefined
  return (
    <>
      <h4 id={`${headingId}-governing`}>Đồ án đang áp dụng</h4>
      {first && (
        <Text size="sm" mb={4} data-testid="governing-approval">
          Phê duyệt ngày {formatDate(first.approved_at)}
          {replaced ? `; thay thế đồ án cùng cấp theo ${decision(replaced)}.` : '.'}
        </Text>
      )}
      <div aria-labelledby={`${headingId}-governing`} data-testid="governing-plan">
        {governing.map((z) => (
          <ZoneFacts key={z.id} z={z} />
        ))}
      </div>
      {history.length > 0 && (
        <details className="qh-plan-history" data-testid="plan-history">
          <summary>
            <h4 id={`${headingId}-history`} style={{ display: 'inline' }}>
              Lịch sử:{' '}
              {history.length === 1 ? 'đồ án cũ đã được thay thế' : `${history.length} ô của đồ án cũ đã được thay thế`}
            </h4>
          </summary>
          <div aria-labelledby={`${headingId}-history`}>
            {history.map((z) => (
              <ZoneFacts key={z.id} z={z} />
            ))}
          </div>
        </details>
      )}
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
