import { List, Text } from '@mantine/core'
import type { ValuationData } from '#core/contract/lookups.ts'
import { formatDate, formatDistance, formatMoneyShort, formatNumber } from '../../../lib/format/format.ts'

type Estimate = NonNullable<ValuationData['market_estimate']>

export const METHOD_NAMES = { so_sanh: 'So sánh', thang_du: 'Thặng dư', he_so: 'Hệ số điều chỉnh giá đất' } as const

/** "dùng 100 %" or "đối chiếu": how much of the estimate a method carries. */
export const methodShare = (w: number | undefined) =>
  w === undefined || w === 0 ? 'đối chiếu' : `dùng ${formatNumber(w * 100)} %`

/** The methods the estimate weighed side by side, and the sales left out with the reason. */
export function MethodsList({ m }: { m: Estimate }) {
  return (
    <>
      {m.methods && m.methods.length > 0 ? (
        <div data-testid="market-methods">
          <Text size="sm" fw={600}>
            Phương pháp (Nghị định 71/2024)
          </Text>
          <List size="sm" spacing={4}>
            {m.methods.map((x) => (
              <List.Item key={x.method}>
                <strong>{METHOD_NAMES[x.method]}</strong>: {formatMoneyShort(x.vnd_per_m2)}/m² · {methodShare(x.weight)}
                {x.method === 'so_sanh' ? null : (
                  <Text size="xs" c="dimmed">
                    {x.note}
                  </Text>
                )}
              </List.Item>
            ))}
          </List>
        </div>
      ) : null}
      {m.excluded && m.excluded.length > 0 ? (
        <details data-testid="market-excluded">
          <summary>
            <Text span size="sm">
              Đã bỏ {m.excluded.length} giao dịch gần đó vì khác thị trường (điều chỉnh vị trí quá giới hạn)
            </Text>
          </summary>
          <List size="xs" spacing={2}>
            {m.excluded.map((x) => (
              <List.Item key={x.id}>
                {formatDate(x.date)}, cách {formatDistance(x.distance_m)}, {formatMoneyShort(x.vnd_per_m2)}/m²:{' '}
                {x.reason}
              </List.Item>
            ))}
          </List>
        </details>
      ) : null}
    </>
  )
}
