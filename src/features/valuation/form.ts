import { z } from 'zod/mini'
import type { ValuationBody } from '#core/contract/lookups.ts'
import { VALUATION_RANGES } from '#core/limits.ts'
import { parseLocaleNumber } from '../../lib/format/format.ts'
import { legalStatuses, type LegalStatus, type PlaceRef, type ValuationFacts } from '../../lib/valuation-record.ts'

/** What the user typed, as typed: kept in localStorage so a reload or an app update loses nothing. */
export type ValuationDraft = {
  place: PlaceRef | null
  area: string
  frontage: string
  alley: string
  /** "Mặt tiền": the parcel fronts the street, so there is no alley width. */
  frontsStreet: boolean
  floors: string
  legal: LegalStatus
  notes: string
  /** "Giữ vị trí GPS" of photos. */
  keepGps: boolean
}

export const emptyDraft: ValuationDraft = {
  place: null,
  area: '',
  frontage: '',
  alley: '',
  frontsStreet: false,
  floors: '',
  legal: 'chua-ro',
  notes: '',
  keepGps: false,
}

export const NOTES_MAX = 1000

/**
 * An optional number typed the Vietnamese or the English way, within the server's bounds
 * (valuationBody): empty means "use the parcel's own fact".
 */
function typedNumber(label: string, example: string, check: (n: number) => string | null) {
  return z.pipe(
    z.string(),
    z.transform((text: string, ctx) => {
      const n = parseLocaleNumber(text)
      if (n === null) return null
      if (Number.isNaN(n)) {
        ctx.issues.push({ code: 'custom', message: `${label} phải là số, ví dụ ${example}.`, input: text })
        return z.NEVER
      }
      const problem = check(n)
      if (problem) {
        ctx.issues.push({ code: 'custom', message: problem, input: text })
        return z.NEVER
      }
      return n
    }),
  )
}

const vi = (n: number) => n.toLocaleString('vi-VN')
const { area_m2, frontage_m, alley_width_m, floors } = VALUATION_RANGES

export const factsSchema = z.pipe(
  z.object({
    area: typedNumber('Diện tích', '72,5', (n) =>
      n <= 0
        ? 'Diện tích phải lớn hơn 0.'
        : n < area_m2.min
          ? `Diện tích tối thiểu ${vi(area_m2.min)} m².`
          : n > area_m2.max
            ? `Diện tích tối đa ${vi(area_m2.max)} m².`
            : null,
    ),
    frontage: typedNumber('Mặt tiền', '4,5', (n) =>
      n <= 0
        ? 'Chiều ngang mặt tiền phải lớn hơn 0.'
        : n < frontage_m.min
          ? `Chiều ngang mặt tiền tối thiểu ${vi(frontage_m.min)} m.`
          : n > frontage_m.max
            ? `Chiều ngang mặt tiền tối đa ${vi(frontage_m.max)} m.`
            : null,
    ),
    alley: typedNumber('Độ rộng hẻm', '3,5', (n) =>
      n <= 0
        ? 'Độ rộng hẻm phải lớn hơn 0. Nếu thửa nằm mặt tiền đường, hãy bật "Mặt tiền đường".'
        : n < alley_width_m.min
          ? `Độ rộng hẻm tối thiểu ${vi(alley_width_m.min)} m.`
          : n > alley_width_m.max
            ? `Độ rộng hẻm tối đa ${vi(alley_width_m.max)} m.`
            : null,
    ),
    frontsStreet: z.boolean(),
    floors: typedNumber('Số tầng', '3', (n) =>
      !Number.isInteger(n)
        ? 'Số tầng phải là số nguyên.'
        : n < floors.min
          ? 'Số tầng không được âm (0 là đất trống).'
          : n > floors.max
            ? `Số tầng tối đa ${vi(floors.max)}.`
            : null,
    ),
    legal: z.enum(Object.keys(legalStatuses) as [LegalStatus, ...LegalStatus[]]),
    notes: z.string().check(z.maxLength(NOTES_MAX, `Ghi chú tối đa ${NOTES_MAX} ký tự.`)),
  }),
  z.transform((d): ValuationFacts => ({
    area_m2: d.area,
    frontage_m: d.frontage,
    // A street-front parcel has no alley: 0 tells the server so, overriding the parcel's own data.
    alley_width_m: d.frontsStreet ? 0 : d.alley,
    floors: d.floors,
    legal: d.legal,
    notes: d.notes.trim(),
  })),
)

export type DraftField = 'place' | 'area' | 'frontage' | 'alley' | 'floors' | 'legal' | 'notes'
export type DraftErrors = Partial<Record<DraftField, string>>

/** The facts ready to send, or one message per field that needs fixing. */
export function validateDraft(
  draft: ValuationDraft,
): { ok: true; place: PlaceRef; facts: ValuationFacts } | { ok: false; errors: DraftErrors } {
  const errors: DraftErrors = {}
  const parsed = factsSchema.safeParse({ ...draft, alley: draft.frontsStreet ? '' : draft.alley })
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as DraftField
      errors[field] ??= issue.message
    }
  }
  if (!draft.place) errors.place = 'Vui lòng chọn thửa đất cần định giá.'
  if (!parsed.success || !draft.place) return { ok: false, errors }
  return { ok: true, place: draft.place, facts: parsed.data }
}

/** The request body of POST /api/valuation; unknown facts are left out so the server uses the parcel's. */
export function valuationRequest(place: PlaceRef, facts: ValuationFacts, imageIds: string[]): ValuationBody {
  const body: ValuationBody = { lat: place.lat, lng: place.lng }
  if (facts.area_m2 !== null) body.area_m2 = facts.area_m2
  if (facts.frontage_m !== null) body.frontage_m = facts.frontage_m
  if (facts.alley_width_m !== null) body.alley_width_m = facts.alley_width_m
  if (facts.floors !== null) body.floors = facts.floors
  if (imageIds.length > 0) body.image_ids = imageIds
  return body
}

/** A typed number shown back in the field the Vietnamese way: 69.7 → "69,7". */
export function toFieldText(n: number | null | undefined): string {
  return n === null || n === undefined ? '' : String(Math.round(n * 100) / 100).replace('.', ',')
}

function isPlace(v: unknown): boolean {
  if (v === null) return true
  if (typeof v !== 'object') return false
  const p = v as Record<string, unknown>
  return typeof p.lat === 'number' && typeof p.lng === 'number' && typeof p.label === 'string'
}

/** A stored draft from an older version or another app is replaced rather than half-read. */
export function isDraft(v: unknown): v is ValuationDraft {
  if (typeof v !== 'object' || v === null) return false
  const d = v as Record<string, unknown>
  return (
    isPlace(d.place) &&
    ['area', 'frontage', 'alley', 'floors', 'notes'].every((k) => typeof d[k] === 'string') &&
    typeof d.frontsStreet === 'boolean' &&
    typeof d.keepGps === 'boolean' &&
    typeof d.legal === 'string' &&
    d.legal in legalStatuses
  )
}
