/** JavaScript's `\s` spelled out, as the database's vn_fold() writes it. */
const SPACES = /[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+/g

/** The punctuation Vietnamese text carries that the database's unaccent() rewrites, rewritten the same. */
const PUNCTUATION: Record<string, string> = {
  '‘': "'",
  '’': "'",
  '′': "'",
  '“': '"',
  '”': '"',
  '″': '"',
  '‐': '-',
  '‑': '-',
  '–': '-',
  '—': '-',
  '…': '...',
  '«': '<<',
  '»': '>>',
  '×': '*',
}

/**
 * Folds Vietnamese text for search (docs/domain.md): đ→d, the marks NFD splits off dropped, quotes and
 * dashes made ASCII, lowercase, runs of white space made one space, none at the ends. The database's
 * vn_fold() (migration 018) is the same rule for Vietnamese text, held to the same cases by
 * server/src/search/vn-fold.test.ts (letters of other alphabets, ø or ß, may fold differently there).
 */
export function foldVietnamese(text: string): string {
  return text
    .replace(/đ/g, 'd')
    .replace(/Đ/g, 'D')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[‘’′“”″‐‑–—…«»×]/g, (c) => PUNCTUATION[c]!)
    .toLowerCase()
    .replace(SPACES, ' ')
    .replace(/^ | $/g, '')
}
