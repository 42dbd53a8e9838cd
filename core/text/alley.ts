const ALLEY_WORDS = new Map([
  ['hẻm', 'Hẻm'],
  ['hem', 'Hẻm'],
  ['ngõ', 'Ngõ'],
  ['ngo', 'Ngõ'],
  ['ngách', 'Ngách'],
  ['ngach', 'Ngách'],
  ['kiệt', 'Kiệt'],
  ['kiet', 'Kiệt'],
])

/**
 * The kind of way a name says it is, when it says it is an alley: "Hẻm 12 Nguyễn Huệ" → "Hẻm",
 * "ngõ 5 Phố Huế" → "Ngõ", "Kiệt 34 Lê Lợi" → "Kiệt"; null for any other name (a street). The word is
 * read with its tone or with none at all, never folded: "Ngô Quyền" is a street.
 */
export function alleyWord(name: string): string | null {
  const first = /^\p{L}+/u.exec(name.trim().normalize('NFC').toLowerCase())?.[0]
  return (first && ALLEY_WORDS.get(first)) ?? null
}
