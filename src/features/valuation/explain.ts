import { LEVEL_WORDS, levelOf } from '#core/valuation/confidence.ts'
import type { ConfidenceLevel, PlanningData, ValuationData } from '#core/contract/lookups.ts'
import { foldVietnamese } from '#core/text/fold.ts'
import { formatArea, formatMeters } from '../../lib/format/format.ts'

/** Said wherever a price is shown: this is an estimate, not a formal appraisal. */
export const DISCLAIMER =
  'Đây là giá ước tính để tham khảo, tính từ bảng giá đất và các giao dịch gần đó; không phải chứng thư thẩm định giá. Giá thực tế còn tuỳ hiện trạng, pháp lý và thoả thuận giữa các bên.'

/** How many comparables carry a number on the map, matching the numbered list beside it. */
export const NUMBERED = 10

type Position = NonNullable<ValuationData['state_price']>['position']

/**
 * Why the price table puts the parcel at this position, in the words of the table: VT1 is frontage on
 * the street; VT2–VT4 are alleys, narrower the higher the number. `alleyWidth` is what was sent (0 =
 * street front, null = the parcel's own record was used).
 */
export function positionReason(position: Position, street: string, alleyWidth: number | null): string {
  const width = alleyWidth !== null && alleyWidth > 0 ? ` rộng ${formatMeters(alleyWidth)}` : ''
  const source = alleyWidth === null ? ' (theo dữ liệu thửa đất)' : ''
  switch (position) {
    case 'VT1':
      return `Vị trí 1: thửa đất có mặt tiền ${streetPhrase(street)}${source}.`
    case 'VT2':
      return `Vị trí 2: thửa đất trong hẻm${width} — hẻm rộng, thông ra ${streetPhrase(street)}${source}.`
    case 'VT3':
      return `Vị trí 3: thửa đất trong hẻm${width} — hẻm hẹp hơn vị trí 2${source}.`
    case 'VT4':
      return `Vị trí 4: thửa đất trong hẻm${width} — hẻm nhỏ nhất theo bảng giá${source}.`
  }
}

/** Words a street name may already begin with: "Đường Đinh Tiên Hoàng" needs no second "đường". */
const ROAD_WORDS = /^(duong|dai lo|pho|hem|ngo|ngach|kiet|quoc lo|tinh lo|huong lo|xa lo|cao toc)\b/

/** "đường Lê Lợi", but "Đường Đinh Tiên Hoàng" and "Đại lộ số 2" as they are: never a word twice. */
export function streetPhrase(street: string): string {
  return ROAD_WORDS.test(foldVietnamese(street)) ? street : `đường ${street}`
}

/**
 * The confidence level in words. The server's level is read off the same calibration as the figure;
 * results saved before it was sent fall back to the same thresholds (core/valuation/confidence.ts).
 */
export function confidenceWords(m: { confidence: number; confidence_level?: ConfidenceLevel | undefined }): string {
  return LEVEL_WORDS[m.confidence_level ?? levelOf(m.confidence)]
}

/**
 * The planning situation in one sentence: "vướng quy hoạch" with the area taken when a road reserve
 * cuts the parcel or the zone is not residential, else that the parcel is clear.
 */
export function planningSummary(planning: PlanningData): { affected: boolean; text: string } {
  const reserves = planning.road_reserves
  const zone = planning.zones[0]
  const residential = zone ? /^(ODT|ONT)$/.test(zone.land_use_code) : true
  if (reserves.length > 0) {
    const total = reserves.reduce((s, r) => s + r.affected_area_m2, 0)
    const roads = reserves.map((r) => `${r.road_name} (lộ giới ${formatMeters(r.width_m)})`).join(', ')
    return { affected: true, text: `Vướng quy hoạch: ${formatArea(total)} nằm trong lộ giới ${roads}.` }
  }
  if (zone && !residential) {
    return {
      affected: true,
      text: `Vướng quy hoạch: thửa nằm trong khu quy hoạch ${zone.land_use_name} (${zone.land_use_code}), không phải đất ở.`,
    }
  }
  return {
    affected: false,
    text: zone
      ? `Không vướng quy hoạch: thuộc khu ${zone.land_use_name} (${zone.land_use_code}).`
      : 'Không vướng lộ giới; chưa có đồ án quy hoạch phủ thửa này.',
  }
}
