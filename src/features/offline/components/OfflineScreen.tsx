import '@mantine/core/styles/Tabs.css'
import '@mantine/core/styles/Progress.css'
import '@mantine/core/styles/Alert.css'
import '@mantine/core/styles/SegmentedControl.css'
import '../offline.css'
import { useSetAtom } from 'jotai'
import { Container, Stack, Tabs, Text, Title } from '@mantine/core'
import { useNavigate } from '@tanstack/react-router'
import type { HistoryEntry } from '../../history/index.ts'
import { HistoryPanel } from '../../history/pages.ts'
import { QueueList } from '../../outbox/index.ts'
import { resultAtom } from '../../valuation/index.ts'
import { SavedAreasList } from './SavedAreasList.tsx'
import { StorageCard } from './StorageCard.tsx'

export type OfflineTab = 'areas' | 'queue' | 'history'

/** Everything the app keeps for working without a signal: saved areas, photos waiting to be sent, lookup history. */
export function OfflineScreen({ tab, onTab }: { tab: OfflineTab; onTab: (tab: OfflineTab) => void }) {
  const navigate = useNavigate()
  const setValuation = useSetAtom(resultAtom)
  // A stored valuation opens on the valuation screen as it was, without a new (counted) request.
  const openValuation = (e: HistoryEntry<'valuation'>) => {
    setValuation({ record: e.result, historyId: e.id, at: e.at, stored: true })
    void navigate({ to: '/valuation' })
  }
  return (
    <Container size="md" py="lg" w="100%">
      <Stack gap="md">
        <div>
          <Title order={1}>Dùng khi không có mạng</Title>
          <Text c="dimmed">Khu vực bản đồ đã tải về, ảnh đang chờ gửi và các kết quả tra cứu đã lưu trên máy này.</Text>
        </div>
        <Tabs value={tab} onChange={(v) => v && onTab(v as OfflineTab)} keepMounted={false}>
          <Tabs.List grow className="offline-tabs">
            <Tabs.Tab value="areas">Khu vực lưu</Tabs.Tab>
            <Tabs.Tab value="queue">Ảnh chờ gửi</Tabs.Tab>
            <Tabs.Tab value="history">Lịch sử</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="areas" pt="md">
            <SavedAreasList />
          </Tabs.Panel>
          <Tabs.Panel value="queue" pt="md">
            <QueueList />
          </Tabs.Panel>
          <Tabs.Panel value="history" pt="md">
            <HistoryPanel onOpenValuation={openValuation} />
          </Tabs.Panel>
        </Tabs>
        <StorageCard />
      </Stack>
    </Container>
  )
}
