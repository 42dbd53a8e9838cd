import { foldVietnamese } from '#core/text/fold.ts'

// Kind words in front of a unit's name, longest first so "thi xa" wins over "xa". "thanh pho" is a
// province (Hà Nội) or, before 2025, a city under a province (a district's level): both are dropped.
const KIND_WORDS = [
  'thanh pho',
  'thi tran',
  'thi xa',
  'dac khu',
  'phuong',
  'quan',
  'huyen',
  'tinh',
  'xa',
  'tp',
  'tx',
  'tt',
  'p',
  'q',
  'h',
]
const kindPrefix = new RegExp(`^(?:${KIND_WORDS.join('|')})(?: |(?=\\d))`)

/**
 * The comparable core of an administrative unit's name, what old and new names are matched by: folded,
 * quotes, apostrophes and other punctuation gone ("B’Lao" and "B'Lao" agree), without its kind word
 * ("Phường 12" → "12", "Quận Gò Vấp" → "go vap", "TP. Hồ Chí Minh" → "ho chi minh", "Q.3" → "3"), and
 * numbers without leading zeros ("Phường 01" → "1").
 */
export function unitKey(name: string): string {
  const plain = foldVietnamese(name)
    .replace(/[’'‘`"“”]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
  return plain
    .replace(kindPrefix, '')
    .replace(/\b0+(\d)/g, '$1')
    .trim()
}

/** Which kind of unit a name's kind word says it is: a ward (phường, xã, thị trấn, đặc khu), a district (quận, huyện, thị xã), or neither. */
export function unitLevel(name: string): 'ward' | 'district' | 'province' | null {
  const f = foldVietnamese(name)
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
  if (/^(phuong|xa|thi tran|dac khu|p|tt)( |\d)/.test(f)) return 'ward'
  if (/^(quan|huyen|thi xa|q|tx|h)( |\d)/.test(f)) return 'district'
  if (/^(tinh)( |\d)/.test(f)) return 'province'
  return null
}
