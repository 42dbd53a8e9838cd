import { Alert, Badge, Group, List, Paper, Progress, Stack, Text, Title } from '@mantine/core'
import { IconAlertTriangle } from '@tabler/icons-react'
import { errorTexts } from '../../../lib/errors.ts'
import { formatDate, formatMoneyShort, formatPercent, formatVndPerM2 } from '../../../lib/format/format.ts'
import { inputLine } from '../adjustments.ts'
import { CONFIDENCE_CAP } from '#core/valuation/confidence.ts'
import { confidenceWords } from '../explain.ts'
import { MethodsList } from './MethodsList.tsx'
import type { ValuationRecord } from '../../../lib/valuation-record.ts'

const LEVEL_COLOR = { Cao: 'teal', 'Trung bình': 'yellow', Thấp: 'orange' } as const

/** The market range, its calibrated confidence, what to be wary of, and the facts it was computed from. */
export function MarketCard({ record }: { record: ValuationRecord }) {
  const m = record.data.market_estimate
  if (!m) {
    return (
      <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={20} aria-hidden />} title="Giá thị trường">
        {errorTexts.EMPTY_VALUATION}
      </Alert>
    )
  }
  const words = confidenceWords(m)
  const share = formatPercent(Math.min(m.confidence, CONFIDENCE_CAP))
  const changes = (m.inputs ?? []).filter((i) => i.note)
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="market-title" data-testid="market-estimate">
      <Stack gap="xs">
        <Title order={3} size="h5" id="market-title">
          Giá thị trường ước tính
        </Title>
        <Text className="price-mid" data-testid="market-mid">
          {formatMoneyShort(m.mid_vnd)}
        </Text>
        <div
          className="price-range"
          data-testid="market-range"
          aria-label={`Khoảng giá từ ${formatMoneyShort(m.low_vnd)} đến ${formatMoneyShort(m.high_vnd)}, giữa ${formatMoneyShort(m.mid_vnd)}`}
        >
          {(
            [
              ['Thấp', m.low_vnd],
              ['Giữa', m.mid_vnd],
              ['Cao', m.high_vnd],
            ] as const
          ).map(([label, v], i) => (
            <Group key={label} gap={10} align="flex-end" wrap="nowrap">
              {i > 0 ? <span aria-hidden>–</span> : null}
              <div>
                <Text size="xs" c="dimmed">
                  {label}
                </Text>
                <Text fw={600}>{formatMoneyShort(v)}</Text>
              </div>
            </Group>
          ))}
        </div>
        <Text>
          Đơn giá: <strong>{formatVndPerM2(m.vnd_per_m2)}</strong>
        </Text>
        <div data-testid="market-confidence">
          <Group justify="space-between" gap="xs">
            <Text size="sm">
              Độ tin cậy: <strong>{words}</strong>
            </Text>
            <Text size="sm" c="dimmed">
              {share}
            </Text>
          </Group>
          <Progress
            value={Math.min(m.confidence, CONFIDENCE_CAP) * 100}
            color={LEVEL_COLOR[words as keyof typeof LEVEL_COLOR] ?? 'gray'}
            aria-label={`Độ tin cậy ${words}, ${share}`}
          />
          <Text size="xs" c="dimmed" mt={4}>
            Với các ước tính cùng mức này, giá bán thật rơi vào khoảng giá trên khoảng {share} số lần (đo trên giao dịch
            để riêng ra kiểm tra).
          </Text>
        </div>
        {m.warnings && m.warnings.length > 0 ? (
          <Alert
            color="orange"
            variant="light"
            p="xs"
            icon={<IconAlertTriangle size={18} aria-hidden />}
            data-testid="market-warnings"
            title="Cần lưu ý"
          >
            <List size="sm" spacing={2}>
              {m.warnings.map((w) => (
                <List.Item key={w}>{w}</List.Item>
              ))}
            </List>
          </Alert>
        ) : null}
        {changes.length > 0 ? (
          <div data-testid="input-effects">
            <Text size="sm" fw={600}>
              Thông tin bạn nhập đã làm giá thay đổi:
            </Text>
            <List size="sm" spacing={2}>
              {changes.map((i) => (
                <List.Item key={i.field}>{i.note}</List.Item>
              ))}
            </List>
          </div>
        ) : null}
        {m.inputs && m.inputs.length > 0 ? (
          <div data-testid="market-inputs">
            <Text size="sm" fw={600}>
              Dữ liệu đã dùng
            </Text>
            <Stack gap={2}>
              {m.inputs.map((i) => {
                const line = inputLine(i)
                return (
                  <Group key={i.field} gap={6} wrap="nowrap" justify="space-between">
                    <Text size="sm">
                      {line.label}: {line.value}
                    </Text>
                    <Badge
                      size="sm"
                      variant={i.from === 'typed' ? 'filled' : 'light'}
                      color={i.from === 'default' ? 'gray' : undefined}
                      style={{ flexShrink: 0 }}
                    >
                      {line.from}
                    </Badge>
                  </Group>
                )
              })}
            </Stack>
          </div>
        ) : null}
        <Text size="sm">{m.method}</Text>
        <MethodsList m={m} />
        <Text size="xs" c="dimmed">
          Tính đến ngày {formatDate(m.as_of)}
        </Text>
      </Stack>
    </Paper>
  )
}
