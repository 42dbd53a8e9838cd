import { formatMoneyShort, formatVndPerM2 } from '../../lib/format/format.ts'
import type { ValuationRecord } from '../../lib/valuation-record.ts'

/** The link that opens the valuation screen on the same parcel (the recipient runs their own valuation). */
export function valuationLink(record: ValuationRecord, origin: string): string {
  const q = new URLSearchParams({ lat: String(record.place.lat), lng: String(record.place.lng) })
  if (record.place.sheet !== undefined) q.set('sheet', String(record.place.sheet))
  if (record.place.parcel !== undefined) q.set('parcel', String(record.place.parcel))
  return `${origin}/valuation?${q}`
}

/** A few lines that say the result without opening the app. */
export function shareText(record: ValuationRecord): string {
  const m = record.data.market_estimate
  const s = record.data.state_price
  const lines = [`Định giá: ${record.place.label}`]
  if (m)
    lines.push(
      `Giá thị trường ước tính: ${formatMoneyShort(m.low_vnd)} – ${formatMoneyShort(m.mid_vnd)} – ${formatMoneyShort(m.high_vnd)} (${formatVndPerM2(m.vnd_per_m2)})`,
    )
  if (s) lines.push(`Giá nhà nước ${s.year}: ${formatVndPerM2(s.price_vnd_per_m2)}, ${s.position}, ${s.street}`)
  lines.push('Giá ước tính để tham khảo, không phải chứng thư thẩm định giá.')
  return lines.join('\n')
}

export type ShareOutcome = 'shared' | 'copied' | 'cancelled' | 'failed'

/** "Chia sẻ": the system share sheet where there is one (Web Share API), else the link copied. */
export async function shareValuation(
  record: ValuationRecord,
  nav: Navigator = navigator,
  origin: string = location.origin,
): Promise<ShareOutcome> {
  const data = { title: 'Định giá đất', text: shareText(record), url: valuationLink(record, origin) }
  if (typeof nav.share === 'function' && (typeof nav.canShare !== 'function' || nav.canShare(data))) {
    try {
      await nav.share(data)
      return 'shared'
    } catch (err) {
      // Closing the share sheet is a choice, not a failure.
      if (err instanceof DOMException && err.name === 'AbortError') return 'cancelled'
    }
  }
  try {
    await nav.clipboard.writeText(`${data.text}\n${data.url}`)
    return 'copied'
  } catch {
    return 'failed'
  }
}
