import { Text } from '@mantine/core'
import type { Place } from '#core/contract/lookups.ts'
import { formatDate } from '../../../lib/format/format.ts'
import { formatDecimal } from '../../../lib/geo/coordinates.ts'
import type { Point } from '../../../lib/map-url.ts'

/** "Thành phố Hồ Chí Minh" → "TP. Hồ Chí Minh", as addresses are written. */
export function shortProvince(name: string): string {
  return name.replace(/^Thành phố /, 'TP. ')
}

/** "Phường Bến Nghé, Quận 1; Phường Đa Kao, Quận 1": the former units, each once. */
export function formerLine(place: Place): string {
  return [...new Set(place.before_2025.map((u) => [u.ward, u.district].filter(Boolean).join(', ')))].join('; ')
}

/**
 * Where the point is today and before 1 July 2025: "Phường Sài Gòn, TP. Hồ Chí Minh" and, smaller,
 * "Trước 1/7/2025: Phường Bến Nghé, Quận 1", with the boundaries' source and date.
 */
export function PlaceLine({ place }: { place: Place }) {
  const former = formerLine(place)
  return (
    <div className="qh-place" data-testid="result-place">
      <Text fw={600}>
        {place.ward}, {shortProvince(place.province)}
      </Text>
      {former && (
        <Text size="sm" c="dimmed" data-testid="result-place-before">
          Trước 1/7/2025: {former}
        </Text>
      )}
      <Text size="xs" c="dimmed">
        Ranh giới hành chính {formatDate(place.source.data_date)} — nguồn: {place.source.name}
      </Text>
    </div>
  )
}

/** A tap where no parcel and no plan lie: the place anyway, and what is missing, in words. */
export function NoDataResult({ point, place }: { point: Point; place: Place | null }) {
  return (
    <article className="qh-result" data-testid="result-no-data" aria-labelledby="qh-no-data-title">
      <h2 id="qh-no-data-title">{place ? place.ward : 'Ngoài lãnh thổ đất liền'}</h2>
      {place ? (
        <PlaceLine place={place} />
      ) : (
        <Text size="sm">Vị trí này không thuộc phường, xã nào của Việt Nam (biển hoặc nước ngoài).</Text>
      )}
      <Text size="sm" mt="xs" data-testid="no-data-text">
        Chưa có dữ liệu quy hoạch ở khu vực này. Máy chủ chỉ có dữ liệu thửa đất và quy hoạch ở những vùng đã nhập (xem
        vùng có dữ liệu trên bản đồ); ở đây chỉ có ranh giới hành chính.
      </Text>
      <Text size="sm" mt={4}>
        Vị trí: {formatDecimal(point)}
      </Text>
    </article>
  )
}
