import { Button, Text } from '@mantine/core'
import { IconMapSearch } from '@tabler/icons-react'
import type { Place } from '#core/contract/lookups.ts'
import { formatDate } from '../../../lib/format/format.ts'
import { formatDecimal } from '../../../lib/geo/coordinates.ts'
import type { Point } from '../../../lib/map-url.ts'
import type { ServerData } from '../server-data.ts'

/** "Thành phố Hồ Chí Minh" → "TP. Hồ Chí Minh", as addresses are written. */
export function shortProvince(name: string): string {
  return name.replace(/^Thành phố /, 'TP. ')
}

const KIND = /^(Phường|Xã|Thị trấn|Đặc khu) /

/** "Phường Hàng Mã, Hàng Bồ" : the wards of one district, the kind word once while it stays the same. */
function wardsOf(wards: string[]): string {
  const kind = KIND.exec(wards[0] ?? '')?.[1]
  return wards.map((w, i) => (i > 0 && kind && KIND.exec(w)?.[1] === kind ? w.slice(kind.length + 1) : w)).join(', ')
}

/**
 * The former units, each once, grouped by their district: "Phường Bến Nghé, Quận 1" for one,
 * "Phường Hàng Mã, Hàng Bồ (Quận Hoàn Kiếm); Xã Tiền Phong, Huyện Mê Linh" for several.
 */
export function formerLine(place: Place): string {
  const byDistrict = new Map<string, string[]>()
  for (const u of place.before_2025) {
    const wards = byDistrict.get(u.district) ?? []
    if (!wards.includes(u.ward)) wards.push(u.ward)
    byDistrict.set(u.district, wards)
  }
  return [...byDistrict]
    .map(([district, wards]) =>
      wards.length === 1 || !district
        ? [wardsOf(wards), district].filter(Boolean).join(', ')
        : `${wardsOf(wards)} (${district})`,
    )
    .join('; ')
}

/**
 * Where the point is today and before 1 July 2025: "Phường Sài Gòn, TP. Hồ Chí Minh" (left out when a
 * heading already says it) and, smaller, "Trước 1/7/2025: Phường Bến Nghé, Quận 1", with the boundaries'
 * source and date.
 */
export function PlaceLine({ place, named = true }: { place: Place; named?: boolean }) {
  const former = formerLine(place)
  return (
    <div className="qh-place" data-testid="result-place">
      {named && (
        <Text fw={600}>
          {place.ward}, {shortProvince(place.province)}
        </Text>
      )}
      {former && (
        <Text size="sm" c="dimmed" data-testid="result-place-before">
          Trước 1/7/2025: {former}
        </Text>
      )}
      <Text size="xs" c="dimmed">
        {place.source.name}, ngày {formatDate(place.source.data_date)}
      </Text>
    </div>
  )
}

/** What the server does hold, and a way there: for a place where it has none. */
export function ServerDataText({ data, onShowData }: { data: ServerData; onShowData: () => void }) {
  if (data.datasets.length === 0)
    return (
      <Text size="sm" data-testid="server-data">
        Máy chủ chưa có dữ liệu thửa đất hay quy hoạch nào; bản đồ chỉ có ranh giới hành chính.
      </Text>
    )
  return (
    <div data-testid="server-data">
      <Text size="sm">
        {data.wards.length > 0 ? `Máy chủ có dữ liệu thửa đất và quy hoạch ở: ${data.wards.join('; ')}. ` : ''}
        Dữ liệu: {data.datasets.join('; ')}.
      </Text>
      {data.bounds && (
        <Button
          size="sm"
          variant="light"
          mt={6}
          leftSection={<IconMapSearch size={18} aria-hidden />}
          onClick={onShowData}
        >
          Tới vùng có dữ liệu
        </Button>
      )}
    </div>
  )
}

/** A tap where no parcel and no plan lie: the place anyway, that there is no planning data, and what data there is. */
export function NoDataResult(props: {
  point: Point
  place: Place | null
  server: ServerData | null
  onShowData: () => void
}) {
  const { place, server } = props
  return (
    <article className="qh-result" data-testid="result-no-data" aria-labelledby="qh-no-data-title">
      <h2 id="qh-no-data-title">
        {place ? `${place.ward}, ${shortProvince(place.province)}` : 'Ngoài lãnh thổ đất liền'}
      </h2>
      {/* What matters first, above the fold of a phone's sheet: no data here, and where there is some. */}
      <Text fw={600} mt={4} mb={4} data-testid="no-data-text">
        Chưa có dữ liệu quy hoạch ở khu vực này.
      </Text>
      {server && <ServerDataText data={server} onShowData={props.onShowData} />}
      <div style={{ marginTop: 10 }}>
        {place ? (
          <PlaceLine place={place} named={false} />
        ) : (
          <Text size="sm">Vị trí này không thuộc phường, xã nào của Việt Nam (biển hoặc nước ngoài).</Text>
        )}
      </div>
      <Text size="sm" mt={6}>
        Vị trí: {formatDecimal(props.point)}
      </Text>
    </article>
  )
}
