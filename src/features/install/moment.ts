/** Days the prompt stays away after "Để sau". */
export const SNOOZE_DAYS = 14

/**
 * Whether now is the right moment to offer installing: not installed, not snoozed, and the user has
 * already had an answer from the app (a stored lookup), so the question means something to them.
 */
export function shouldOfferInstall(s: {
  installed: boolean
  canPrompt: boolean
  iosSafari: boolean
  lookups: number
  dismissedAt: number | null
  now: number
}): boolean {
  if (s.installed || (!s.canPrompt && !s.iosSafari)) return false
  if (s.dismissedAt !== null && s.now - s.dismissedAt < SNOOZE_DAYS * 86_400_000) return false
  return s.lookups > 0
}
