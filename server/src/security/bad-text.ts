/**
 * PostgreSQL refused text the client sent: a NUL character (which no PostgreSQL text can hold) or a
 * Unicode escape it cannot store. Both come only from input, so they are the client's 400, not a 500.
 */
export function isUnstorableText(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false
  const code = (err as { code?: unknown }).code
  // 22021 character_not_in_repertoire (invalid byte sequence, 0x00); 22P05 untranslatable_character.
  return code === '22021' || code === '22P05'
}
