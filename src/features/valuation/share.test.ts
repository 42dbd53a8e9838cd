import { describe, expect, it, vi } from 'vitest'
import type { ValuationRecord } from '../../lib/valuation-record.ts'
import { shareText, shareValuation, valuationLink } from './share.ts'
import { valuationFixture } from './test-fixtures.ts'

const record: ValuationRecord = {
  place: { lat: 10.80263, lng: 106.69091, label: '24 Đường Đinh Tiên Hoàng (Tờ 1, thửa 5)', sheet: 1, parcel: 5 },
  facts: { area_m2: 69.7, frontage_m: null, alley_width_m: 0, floors: null, legal: 'so-hong', notes: '' },
  data: valuationFixture,
  planning: null,
  photos: [],
}

describe('sharing a valuation', () => {
  it('links to the valuation screen on the same parcel', () => {
    expect(valuationLink(record, 'https://qh.example')).toBe(
      'https://qh.example/valuation?lat=10.80263&lng=106.69091&sheet=1&parcel=5',
    )
  })

  it('sums up the range and the state price in a few lines', () => {
    expect(shareText(record)).toBe(
      [
        'Định giá: 24 Đường Đinh Tiên Hoàng (Tờ 1, thửa 5)',
        'Giá thị trường ước tính: 6,93 tỷ – 8,04 tỷ – 9,44 tỷ (115.324.000 đ/m²)',
        'Giá nhà nước 2026: 58.066.000 đ/m², VT1, Đường Đinh Tiên Hoàng',
        'Giá ước tính để tham khảo, không phải chứng thư thẩm định giá.',
      ].join('\n'),
    )
  })

  it('uses the Web Share API where the device has it', async () => {
    const share = vi.fn(async () => {})
    const nav = { share, canShare: () => true, clipboard: { writeText: vi.fn() } } as unknown as Navigator
    expect(await shareValuation(record, nav, 'https://qh.example')).toBe('shared')
    expect(share).toHaveBeenCalledWith({
      title: 'Định giá đất',
      text: shareText(record),
      url: valuationLink(record, 'https://qh.example'),
    })
  })

  it('copies the link and summary where there is no share sheet', async () => {
    const writeText = vi.fn(async () => {})
    expect(
      await shareValuation(record, { clipboard: { writeText } } as unknown as Navigator, 'https://qh.example'),
    ).toBe('copied')
    expect(writeText).toHaveBeenCalledWith(`${shareText(record)}\n${valuationLink(record, 'https://qh.example')}`)
  })

  it('treats closing the share sheet as a choice, not a failure', async () => {
    const nav = {
      share: vi.fn(async () => Promise.reject(new DOMException('cancel', 'AbortError'))),
      clipboard: { writeText: vi.fn() },
    } as unknown as Navigator
    expect(await shareValuation(record, nav, 'https://qh.example')).toBe('cancelled')
  })
})
