import fc from 'fast-check'

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
