import { ImportError } from './errors.ts'

/**
 * Vietnamese text from files written before Unicode: TCVN3 (TCVN 5712:1993 VN3, the "ABC" fonts such
 * as .VnTime), VNI Windows, and Windows-1258. Readers hand attribute text over as a "byte string"
 * (one character per byte, U+0000–U+00FF, as Buffer's latin1 gives); `decodeText` turns it into
 * Unicode NFC, and `detectEncoding` picks the encoding of a file from a sample of its strings.
 */
export const textEncodings = ['utf-8', 'tcvn3', 'vni', 'windows-1258'] as const
export type TextEncoding = (typeof textEncodings)[number]

/** Names people and tools write (--encoding, a shapefile's .cpg) for each encoding. */
const aliases: Record<string, TextEncoding> = {
  'utf-8': 'utf-8',
  utf8: 'utf-8',
  '65001': 'utf-8',
  unicode: 'utf-8',
  tcvn3: 'tcvn3',
  tcvn: 'tcvn3',
  'tcvn-3': 'tcvn3',
  vn3: 'tcvn3',
  abc: 'tcvn3',
  vntime: 'tcvn3',
  '.vntime': 'tcvn3',
  vni: 'vni',
  'vni-win': 'vni',
  'vni-windows': 'vni',
  'windows-1258': 'windows-1258',
  cp1258: 'windows-1258',
  '1258': 'windows-1258',
}

/** An --encoding or .cpg label as one of the four encodings, or null when it names none of them. */
export function encodingFromLabel(label: string): TextEncoding | null {
  const bare = label
    .trim()
    .toLowerCase()
    .replace(/^ansi\s*/, '')
  return aliases[bare] ?? null
}

/** --encoding: unknown names stop the import with one line listing the valid ones. */
export function parseEncodingOption(label: string): TextEncoding {
  const e = encodingFromLabel(label)
  if (!e) throw new ImportError(`Không biết bảng mã "${label}"; dùng --encoding ${textEncodings.join('|')}`)
  return e
}

// TCVN3 (VN3): the upper half only; lower-case letters with tones, and Ă Â Ê Ô Ơ Ư Đ. Capitals with
// tones have no code: .VnTimeH fonts draw these lower-case codes as capitals, so they read as lower case.
// prettier-ignore
const tcvn3High: Record<number, string> = {
  0xa1: 'Ă', 0xa2: 'Â', 0xa3: 'Ê', 0xa4: 'Ô', 0xa5: 'Ơ', 0xa6: 'Ư',
  0xa7: 'Đ', 0xa8: 'ă', 0xa9: 'â', 0xaa: 'ê', 0xab: 'ô', 0xac: 'ơ',
  0xad: 'ư', 0xae: 'đ', 0xb5: 'à', 0xb6: 'ả', 0xb7: 'ã', 0xb8: 'á',
  0xb9: 'ạ', 0xbb: 'ằ', 0xbc: 'ẳ', 0xbd: 'ẵ', 0xbe: 'ắ', 0xc6: 'ặ',
  0xc7: 'ầ', 0xc8: 'ẩ', 0xc9: 'ẫ', 0xca: 'ấ', 0xcb: 'ậ', 0xcc: 'è',
  0xce: 'ẻ', 0xcf: 'ẽ', 0xd0: 'é', 0xd1: 'ẹ', 0xd2: 'ề', 0xd3: 'ể',
  0xd4: 'ễ', 0xd5: 'ế', 0xd6: 'ệ', 0xd7: 'ì', 0xd8: 'ỉ', 0xdc: 'ĩ',
  0xdd: 'í', 0xde: 'ị', 0xdf: 'ò', 0xe1: 'ỏ', 0xe2: 'õ', 0xe3: 'ó',
  0xe4: 'ọ', 0xe5: 'ồ', 0xe6: 'ổ', 0xe7: 'ỗ', 0xe8: 'ố', 0xe9: 'ộ',
  0xea: 'ờ', 0xeb: 'ở', 0xec: 'ỡ', 0xed: 'ớ', 0xee: 'ợ', 0xef: 'ù',
  0xf1: 'ủ', 0xf2: 'ũ', 0xf3: 'ú', 0xf4: 'ụ', 0xf5: 'ừ', 0xf6: 'ử',
  0xf7: 'ữ', 0xf8: 'ứ', 0xf9: 'ự', 0xfa: 'ỳ', 0xfb: 'ỷ', 0xfc: 'ỹ',
  0xfd: 'ý', 0xfe: 'ỵ',
}

// VNI Windows writes a base letter followed by a mark byte ("Nguyeãn" = Nguy e + ã → ễ): each mark byte
// is one or two combining marks here, and NFC joins them to the letter before. A few letters are one byte.
const grave = '\u0300'
const acute = '\u0301'
const circumflex = '\u0302'
const tilde = '\u0303'
const breve = '\u0306'
const hook = '\u0309'
const dot = '\u0323'
// prettier-ignore
const vniHigh: Record<number, string> = {
  // tones after a vowel (lower case, then upper case)
  0xf9: acute, 0xf8: grave, 0xfb: hook, 0xf5: tilde, 0xef: dot,
  0xd9: acute, 0xd8: grave, 0xdb: hook, 0xd5: tilde, 0xcf: dot,
  // circumflex (a e o), and circumflex with a tone
  0xe2: circumflex, 0xe1: circumflex + acute, 0xe0: circumflex + grave, 0xe5: circumflex + hook, 0xe3: circumflex + tilde, 0xe4: circumflex + dot,
  0xc2: circumflex, 0xc1: circumflex + acute, 0xc0: circumflex + grave, 0xc5: circumflex + hook, 0xc3: circumflex + tilde, 0xc4: circumflex + dot,
  // breve (a), and breve with a tone
  0xea: breve, 0xe9: breve + acute, 0xe8: breve + grave, 0xfa: breve + hook, 0xfc: breve + tilde, 0xeb: breve + dot,
  0xca: breve, 0xc9: breve + acute, 0xc8: breve + grave, 0xda: breve + hook, 0xdc: breve + tilde, 0xcb: breve + dot,
  // letters of one byte
  0xf4: 'ơ', 0xd4: 'Ơ', 0xf6: 'ư', 0xd6: 'Ư', 0xf1: 'đ', 0xd1: 'Đ',
  0xed: 'í', 0xec: 'ì', 0xe6: 'ỉ', 0xf3: 'ĩ', 0xf2: 'ị', 0xee: 'ỵ',
  0xcd: 'Í', 0xcc: 'Ì', 0xc6: 'Ỉ', 0xd3: 'Ĩ', 0xd2: 'Ị', 0xce: 'Ỵ',
}

// Windows-1258 is in the WHATWG Encoding Standard (and so in every TextDecoder): its precomposed
// letters plus five combining tone marks, which NFC folds into the letters.
const cp1258 = new TextDecoder('windows-1258')
const utf8 = new TextDecoder('utf-8', { fatal: true })
const utf8Lenient = new TextDecoder('utf-8')

const bytesOf = (s: string) => Buffer.from(s, 'latin1')
const allBelow = (s: string, limit: number) => {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) >= limit) return false
  return true
}
/** Plain ASCII reads the same in every encoding here, so it says nothing about which one a file is in. */
const isAscii = (s: string) => allBelow(s, 0x80)
const byTable = (s: string, table: Record<number, string>) => {
  let out = ''
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    out += c >= 0x80 ? (table[c] ?? s[i]!) : s[i]!
  }
  return out
}

function strictUtf8(s: string): string | null {
  try {
    return utf8.decode(bytesOf(s))
  } catch {
    return null
  }
}

/**
 * The bytes of a string as they were in the file. GDAL recodes some files itself (a .cpg or a TAB
 * charset it cannot convert is read as Latin-1): their text reaches us as valid UTF-8 of characters
 * U+0080–U+00FF, which are the original bytes one for one.
 */
function fileBytes(raw: string): string {
  const u = strictUtf8(raw)
  return u !== null && u !== raw && allBelow(u, 0x100) ? u : raw
}

/** One string of the file (its bytes as latin1 characters) as Unicode NFC, read in `encoding`. */
export function decodeText(raw: string, encoding: TextEncoding): string {
  if (isAscii(raw)) return raw
  if (encoding === 'utf-8') return utf8Lenient.decode(bytesOf(raw)).normalize('NFC')
  const s = fileBytes(raw)
  if (encoding === 'windows-1258') return cp1258.decode(bytesOf(s)).normalize('NFC')
  return byTable(s, encoding === 'tcvn3' ? tcvn3High : vniHigh).normalize('NFC')
}

// A Vietnamese syllable without its tone: onset, vowel nucleus, final consonant.
const syllable = new RegExp(
  '^(ngh|ng|nh|ch|gh|gi|kh|ph|qu|th|tr|[bcdđghklmnpqrstvx])?' +
    '(uyê|uyu|uya|oai|oay|oao|oeo|uây|uôi|ươi|ươu|yêu|iêu|' +
    'ai|ao|au|ay|âu|ây|eo|êu|ia|iê|iu|oa|oă|oe|oi|ôi|ơi|oo|ua|uâ|uê|ui|uô|uy|uơ|ưa|ưi|ươ|ưu|yê|' +
    '[aăâeêioôơuưy])(ch|ng|nh|[cmnpt])?$',
)
const tones = /[\u0300\u0301\u0303\u0309\u0323]/g

/** +1 for a word that reads as Vietnamese with a letter beyond ASCII, −1 for one that cannot, 0 for plain ASCII. */
function wordScore(word: string): number {
  if (isAscii(word)) return 0
  const nfd = word.toLowerCase().normalize('NFD')
  if ((nfd.match(tones) ?? []).length > 1) return -1
  const bare = nfd.replace(tones, '').normalize('NFC')
  return syllable.test(bare) ? 1 : -1
}

function textScore(text: string): number {
  let score = 0
  for (const word of text.split(/[^\p{L}\p{M}]+/u)) if (word) score += wordScore(word)
  return score
}

/**
 * The encoding a file's text is in, from a sample of its strings (byte strings, as for decodeText):
 * each encoding reads the sample, and the one giving the most Vietnamese syllables and the fewest
 * impossible words wins. Text that is valid UTF-8 and reads as well in it stays UTF-8; nothing
 * beyond ASCII gives `fallback`. `confident` is false when no encoding reads the sample as Vietnamese
 * (the choice is then UTF-8 when the bytes are valid UTF-8, else Windows-1258).
 */
export function chooseEncoding(
  sample: string[],
  fallback: TextEncoding = 'utf-8',
): { encoding: TextEncoding; confident: boolean } {
  const telling = sample.filter((s) => !isAscii(s))
  if (telling.length === 0) return { encoding: fallback, confident: true }
  const allUtf8 = telling.every((s) => strictUtf8(s) !== null)
  let best: { encoding: TextEncoding; score: number } | null = null
  for (const encoding of textEncodings) {
    if (encoding === 'utf-8' && !allUtf8) continue
    const score = telling.reduce((sum, s) => sum + textScore(decodeText(s, encoding)), 0)
    if (!best || score > best.score) best = { encoding, score }
  }
  if (!best || best.score <= 0) return { encoding: allUtf8 ? 'utf-8' : 'windows-1258', confident: false }
  return { encoding: best.encoding, confident: true }
}

export const detectEncoding = (sample: string[], fallback: TextEncoding = 'utf-8'): TextEncoding =>
  chooseEncoding(sample, fallback).encoding

/** True when a byte string is valid UTF-8 (plain ASCII included). */
export const isValidUtf8 = (raw: string): boolean => isAscii(raw) || strictUtf8(raw) !== null
