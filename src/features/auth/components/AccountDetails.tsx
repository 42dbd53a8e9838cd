import '@mantine/core/styles/Table.css'
import { useEffect, useState } from 'react'
import { Loader, Stack, Table, Text, Title } from '@mantine/core'
import type { MeData, UsageDaysData } from '#core/contract/auth.ts'
import { formatDate } from '../../../lib/format/format.ts'
import { authApi } from '../index.ts'

type Loaded = { me: MeData | null; days: UsageDaysData | null }

/** The account's e-mail and its counted lookups of the last 30 days, as the server keeps them. */
export function AccountDetails() {
  const [loaded, setLoaded] = useState<Loaded | 'loading'>('loading')
  useEffect(() => {
    let live = true
    void Promise.all([authApi.me(), authApi.usageDays()]).then(([me, days]) => {
      if (live) setLoaded({ me: me.ok ? me.data : null, days: days.ok ? days.data : null })
    })
    return () => {
      live = false
    }
  }, [])
  if (loaded === 'loading') return <Loader size="sm" aria-label="Đang tải thông tin tài khoản" />
  const { me, days } = loaded
  return (
    <Stack gap="xs">
      <Text data-testid="account-email">
        E-mail: <strong>{me ? me.email : 'chưa đọc được (cần kết nối)'}</strong>
      </Text>
      <Title order={2} size="h4">
        Lượt tra cứu 30 ngày qua
      </Title>
      {!days ? (
        <Text size="sm">Chưa đọc được số lượt tra cứu: cần kết nối mạng.</Text>
      ) : days.days.length === 0 ? (
        <Text size="sm">Chưa có lượt tra cứu nào trong 30 ngày qua.</Text>
      ) : (
        <>
          <Text size="sm" data-testid="usage-days-total">
            Tổng cộng {days.total} lượt trong {days.days.length} ngày.
          </Text>
          <Table striped withTableBorder fz="sm" data-testid="usage-days" aria-label="Lượt tra cứu theo ngày">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Ngày</Table.Th>
                <Table.Th scope="col">Số lượt</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {days.days.map((d) => (
                <Table.Tr key={d.day}>
                  <Table.Td>{formatDate(d.day)}</Table.Td>
                  <Table.Td>{d.count}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </>
      )}
    </Stack>
  )
}
