import { foldVietnamese } from '#core/text/fold.ts'

export type SheetParcelQuery = { sheet_no: number; parcel_no: number; ward?: string }

const SHEET = String.raw`(?:to\s*ban\s*do|tbd|to|t)\s*(?:so\s*)?[:.]?\s*(\d{1,6})`
const PARCEL = String.raw`(?:thua\s*dat|thua|th)\s*(?:so\s*)?[:.]?\s*(\d{1,7})`
const SEP = String.raw`\s*[,;/-]?\s*`
// Whatever follows the numbers names the ward: "tờ 12 thửa 345, phường Gia An".
const REST = String.raw`(?:\s*[,;-]?\s*(.+))?`

const SHEET_FIRST = new RegExp(`^${SHEET}${SEP}${PARCEL}${REST}$`)
const PARCEL_FIRST = new RegExp(`^${PARCEL}${SEP}${SHEET}${REST}$`)
const SLASH = new RegExp(String.raw`^(\d{1,6})\s*/\s*(\d{1,7})$`)

/**
 * Reads a cadastral reference — sheet (tờ bản đồ) and parcel (thửa) numbers — the ways people write it:
 * "tờ 12 thửa 345", "thửa 345 tờ 12", "tờ bản đồ số 12, thửa đất số 345", "t12 th345" or just "12/345".
 * Null for anything else, which is then searched as an address or street name.
 */
export function parseSheetParcel(text: string): SheetParcelQuery | null {
  const folded = foldVietnamese(text)
  const slash = SLASH.exec(folded)
  if (slash) return { sheet_no: Number(slash[1]), parcel_no: Number(slash[2]) }
  const sheetFirst = SHEET_FIRST.exec(folded)
  const parcelFirst = sheetFirst ? null : PARCEL_FIRST.exec(folded)
  const m = sheetFirst ?? parcelFirst
  if (!m) return null
  const [sheet, parcel] = sheetFirst ? [m[1], m[2]] : [m[2], m[1]]
  const ward = m[3]?.trim()
  return { sheet_no: Number(sheet), parcel_no: Number(parcel), ...(ward ? { ward } : {}) }
}
