import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { valuationBody } from '#core/contract/lookups.ts'
import { emptyDraft, toFieldText, validateDraft, valuationRequest, type ValuationDraft } from './form.ts'

const place = { lat: 10.8026283, lng: 106.6909072, label: 'Tờ 1, thửa 5' }
const draft = (patch: Partial<ValuationDraft>): ValuationDraft => ({ ...emptyDraft, place, ...patch })
const errorsOf = (patch: Partial<ValuationDraft>) => {
  const r = validateDraft(draft(patch))
  return r.ok ? {} : r.errors
}

describe('valuation form validation', () => {
  it('asks for a parcel before anything else can be valued', () => {
    expect(validateDraft(emptyDraft)).toEqual({ ok: false, errors: { place: 'Vui lòng chọn thửa đất cần định giá.' } })
  })

  it('accepts a draft with only the parcel chosen: the server then uses the parcel’s own facts', () => {
    expect(validateDraft(draft({}))).toEqual({
      ok: true,
      place,
      facts: { area_m2: null, frontage_m: null, alley_width_m: null, floors: null, legal: 'chua-ro', notes: '' },
    })
  })

  it('reads numbers typed with a decimal comma', () => {
    const r = validateDraft(
      draft({ area: '72,5', frontage: '4,2', alley: '3,5', floors: '3', legal: 'so-hong', notes: '  hẻm xe hơi ' }),
    )
    expect(r).toMatchObject({
      ok: true,
      facts: { area_m2: 72.5, frontage_m: 4.2, alley_width_m: 3.5, floors: 3, legal: 'so-hong', notes: 'hẻm xe hơi' },
    })
  })

  it('says in Vietnamese, per field, what is wrong', () => {
    expect(errorsOf({ area: 'bảy mươi', frontage: '0', alley: '-1', floors: '2,5' })).toEqual({
      area: 'Diện tích phải là số, ví dụ 72,5.',
      frontage: 'Chiều ngang mặt tiền phải lớn hơn 0.',
      alley: 'Độ rộng hẻm phải lớn hơn 0. Nếu thửa nằm mặt tiền đường, hãy bật "Mặt tiền đường".',
      floors: 'Số tầng phải là số nguyên.',
    })
  })

  it('states the upper bounds the server enforces', () => {
    expect(errorsOf({ area: '10.000.001', frontage: '1001', alley: '101', floors: '101' })).toEqual({
      area: 'Diện tích tối đa 10.000.000 m².',
      frontage: 'Chiều ngang mặt tiền tối đa 1.000 m.',
      alley: 'Độ rộng hẻm tối đa 100 m.',
      floors: 'Số tầng tối đa 100.',
    })
    expect(errorsOf({ floors: '-1' })).toEqual({ floors: 'Số tầng không được âm (0 là đất trống).' })
  })

  it('states the lower bounds the server enforces, so a slip like 0,0001 m² is caught before sending', () => {
    expect(errorsOf({ area: '0,5', frontage: '0,2', alley: '0,3' })).toEqual({
      area: 'Diện tích tối thiểu 1 m².',
      frontage: 'Chiều ngang mặt tiền tối thiểu 1 m.',
      alley: 'Độ rộng hẻm tối thiểu 0,5 m.',
    })
  })

  it('limits notes to 1000 characters', () => {
    expect(errorsOf({ notes: 'a'.repeat(1001) })).toEqual({ notes: 'Ghi chú tối đa 1000 ký tự.' })
    expect(errorsOf({ notes: 'a'.repeat(1000) })).toEqual({})
  })

  it('sends alley width 0 for a street-front parcel, ignoring a width typed before the switch was turned on', () => {
    const r = validateDraft(draft({ frontsStreet: true, alley: 'abc' }))
    expect(r).toMatchObject({ ok: true, facts: { alley_width_m: 0 } })
  })

  it('accepts exactly the values the server accepts for each fact', () => {
    const typed = (n: number) => String(n).replace('.', ',')
    fc.assert(
      fc.property(
        fc.oneof(
          fc.integer({ min: -1000, max: 200_000_000 }).map((c) => c / 100),
          fc.constantFrom(0, 0.01, 100, 100.01, 1000, 1000.01, 1_000_000, 1_000_000.01),
        ),
        (n) => {
          const server = (patch: object) => valuationBody.safeParse({ lat: 10, lng: 106, ...patch }).success
          expect(validateDraft(draft({ area: typed(n) })).ok).toBe(server({ area_m2: n }))
          expect(validateDraft(draft({ frontage: typed(n) })).ok).toBe(server({ frontage_m: n }))
          expect(validateDraft(draft({ floors: typed(n) })).ok).toBe(server({ floors: n }))
          // 0 is the "Mặt tiền đường" switch here, a number in the API.
          expect(validateDraft(draft({ alley: typed(n) })).ok).toBe(n !== 0 && server({ alley_width_m: n }))
        },
      ),
      { numRuns: 300 },
    )
  })
})

describe('valuation request', () => {
  it('leaves unknown facts out so the server falls back to the parcel record, and carries the photo ids', () => {
    const facts = {
      area_m2: 80,
      frontage_m: null,
      alley_width_m: 0,
      floors: null,
      legal: 'chua-ro' as const,
      notes: 'x',
    }
    expect(valuationRequest(place, facts, ['a', 'b'])).toEqual({
      lat: place.lat,
      lng: place.lng,
      area_m2: 80,
      alley_width_m: 0,
      image_ids: ['a', 'b'],
    })
    expect(valuationRequest(place, { ...facts, area_m2: null, alley_width_m: null }, [])).toEqual({
      lat: place.lat,
      lng: place.lng,
    })
  })

  it('shows a fact back in its field with a decimal comma', () => {
    expect(toFieldText(69.7)).toBe('69,7')
    expect(toFieldText(80)).toBe('80')
    expect(toFieldText(null)).toBe('')
  })
})
