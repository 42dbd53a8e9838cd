import { Alert, Button, Group, Stack, Text } from '@mantine/core'
import { useAtomValue } from 'jotai'
import { formatDateTime } from '../../../lib/format/format.ts'
import { queuedAtom } from '../atoms.ts'
import type { ValuationDeps } from '../flow.ts'
import { dismissQueued, retryQueued } from '../queue.ts'

/**
 * The valuation asked offline: waiting for the link (kept on the device, so a reload keeps it), or
 * refused by the server when it ran, with the reason and a way to try again or let it go.
 */
export function QueuedNotice({ deps }: { deps: ValuationDeps }) {
  const queued = useAtomValue(queuedAtom)
  if (!queued) return null
  const what = queued.draft.place?.label ?? 'thửa đã chọn'
  const when = formatDateTime(queued.at)
  if (queued.refused === null)
    return (
      <Alert color="sky" variant="light" data-testid="valuation-queued" data-state="waiting" role="status">
        Đã xếp hàng lúc {when}: sẽ định giá {what} khi có mạng, kèm các ảnh đã chọn. Kết quả sẽ có trong lịch sử.
      </Alert>
    )
  return (
    <Alert
      color="red"
      variant="light"
      data-testid="valuation-queued"
      data-state="refused"
      role="alert"
      title="Yêu cầu định giá đã xếp hàng chưa thực hiện được"
    >
      <Stack gap="xs">
        <Text size="sm">
          {what} (xếp hàng lúc {when}): {queued.refused}
        </Text>
        <Text size="sm">Thông tin và ảnh đã nhập vẫn được giữ trên biểu mẫu.</Text>
        <Group gap="xs">
          <Button size="xs" onClick={() => void retryQueued(deps)} data-testid="queued-retry">
            Thử lại
          </Button>
          <Button size="xs" variant="default" onClick={() => void dismissQueued(deps)} data-testid="queued-dismiss">
            Bỏ yêu cầu
          </Button>
        </Group>
      </Stack>
    </Alert>
  )
}
