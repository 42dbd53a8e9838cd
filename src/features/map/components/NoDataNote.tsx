import { Button } from '@mantine/core'
import type { ServerData } from '../server-data.ts'

/**
 * Over the map where it shows none of the server's parcels and plans: in words, so a page of boundaries
 * alone is not mistaken for a failure or for data, with the way to the data.
 */
export function NoDataNote({ server, onShowData }: { server: ServerData; onShowData: () => void }) {
  return (
    <div className="qh-no-data-note qh-floating" role="status" data-testid="map-no-data">
      <span>
        {server.bounds
          ? 'Chưa có dữ liệu quy hoạch ở khu vực này.'
          : 'Máy chủ chưa có dữ liệu thửa đất hay quy hoạch nào.'}
      </span>
      {server.bounds && (
        <Button size="compact-sm" variant="light" onClick={onShowData}>
          Tới vùng có dữ liệu
        </Button>
      )}
    </div>
  )
}
