import fc from 'fast-check'
import { foldVietnamese } from './fold.ts'

/** Vietnamese letters in both cases, precomposed, with every tone and vowel mark, and đ/Đ. */
const vietnameseLetters = [
  ...'aàáảãạăằắẳẵặâầấẩẫậeèéẻẽẹêềếểễệiìíỉĩịoòóỏõọôồốổỗộơờớởỡợuùúủũụưừứửữựyỳýỷỹỵđ',
  ...'bcdghklmnpqrstvx0123456789',
]
const letters = [...vietnameseLetters, ...vietnameseLetters.map((c) => c.toUpperCase())]
/** What names carry besides letters: punctuation, and the spaces files write (tab, no-break, ideographic …). */
const others = [
  ...'.,-/()\'"&:;#‘’“”–—…«»×',
  ' ',
  '  ',
  '\t',
  '\n',
  '\u00a0',
  '\u2002',
  '\u2009',
  '\u202f',
  '\u3000',
  '\ufeff',
]

/** The cases both sides of the fold (core/text/fold.ts and SQL vn_fold()) are held to. */
export const foldCases = [
  'Nguyễn Huệ',
  'Đường Điện Biên Phủ',
  '  Lê   Lợi ',
  'Phường\u00a0Bến\tNghé\n',
  'Hẻm 12 – “Chợ Lớn”… Bà’s',
  'QUẬN 1 / Q.1',
  'Hoà Vang',
  'Hòa Vang',
  // Decomposed input, as some files write it: base letters followed by combining marks.
  'Nguyê\u0303n Hue\u0323\u0302',
  '',
  ' ',
]

/** Names as files and people write them: Vietnamese letters in either case, decomposed or not, any spaces. */
export const vietnameseText = fc
  .array(fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...letters) }, fc.constantFrom(...others)), {
    maxLength: 40,
  })
  .chain((chars) => fc.constantFrom(chars.join(''), chars.join('').normalize('NFD')))

/**
 * The kind words a name's key drops, one at the start (migration 024's vn_name_key): a street's ("Đường",
 * "Phố", "Hẻm") and an administrative unit's ("Phường", "Xã", "Thành phố", "Tỉnh"), as files write them.
 */
export const kindWords = ['Đường', 'Phố', 'Hẻm', 'Phường', 'Xã', 'Thành phố', 'Tỉnh', 'ĐƯỜNG', 'phố']

/** The key rule as the tests state it: the folded name without one leading kind word and its space. */
export function keyOf(text: string): string {
  const folded = foldVietnamese(text)
  const word = kindWords.map(foldVietnamese).find((w) => folded.startsWith(`${w} `))
  return word ? folded.slice(word.length + 1) : folded
}

/**
 * Names and their keys: a price table's street and a map's meet on them ("ĐƯỜNG SỐ 7" ↔ "Số 7", "Phố Huế"
 * ↔ "Huế"), and the search's prefix test ignores the kind word by them.
 */
export const keyCases: [name: string, key: string][] = [
  ['ĐƯỜNG SỐ 7', 'so 7'],
  ['Đường số 7', 'so 7'],
  ['Số 7', 'so 7'],
  ['Phố Huế', 'hue'],
  ['Huế', 'hue'],
  ['Hẻm 12 Lê Lợi', '12 le loi'],
  ['Phường Bến Nghé', 'ben nghe'],
  ['Xã Đan Phượng', 'dan phuong'],
  ['Thành phố Thủ Đức', 'thu duc'],
  ['Tỉnh Bình Dương', 'binh duong'],
  // One word only, and only a whole word followed by more of the name.
  ['Đường Đường Lâm', 'duong lam'],
  ['  Đường\u00a0 Lê Lợi ', 'le loi'],
  ['Phố', 'pho'],
  ['Phùng Hưng', 'phung hung'],
  ['Xa lộ Hà Nội', 'lo ha noi'],
  ['Quốc lộ 13', 'quoc lo 13'],
  ['', ''],
]
