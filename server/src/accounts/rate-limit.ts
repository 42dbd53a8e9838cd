import type { Deps } from '../deps.ts'
import { TooManyAttemptsError } from '../domain-errors.ts'

export type RateRule = { name: string; limit: number; windowSeconds: number }

/**
 * Limits per IP and per e-mail. Windows are fixed and short, so nobody can lock another person out
 * for longer than one window by spending that person's attempts.
 */
export const rateRules = {
  loginIp: { name: 'login-ip', limit: 30, windowSeconds: 15 * 60 },
  loginEmail: { name: 'login-email', limit: 10, windowSeconds: 15 * 60 },
  forgotIp: { name: 'forgot-ip', limit: 30, windowSeconds: 15 * 60 },
  forgotEmail: { name: 'forgot-email', limit: 5, windowSeconds: 15 * 60 },
  // A code's 5 wrong tries stop guessing one code; this stops one address trying codes by the hundred.
  resetIp: { name: 'reset-ip', limit: 30, windowSeconds: 15 * 60 },
} satisfies Record<string, RateRule>

/** Registrations per address (per IPv6 /64), so accounts cannot be made in a loop to farm the daily limit. */
export const registerRule = (perHour: number): RateRule => ({
  name: 'register-ip',
  limit: perHour,
  windowSeconds: 60 * 60,
})

// Longer than any window above; rows older than this can no longer affect a decision.
const RETENTION_MS = 24 * 60 * 60 * 1000

/**
 * Counts one attempt for `subject` under `rule` with a single atomic upsert (shared by every server
 * process through the database) and throws 429 TooManyRequests with Retry-After once over the limit.
 */
export async function hitRateLimit(deps: Pick<Deps, 'db' | 'now'>, rule: RateRule, subject: string): Promise<void> {
  const now = deps.now().getTime()
  const windowMs = rule.windowSeconds * 1000
  const windowStart = Math.floor(now / windowMs) * windowMs
  const rows = await deps.db.query<{ count: number }>(
    `insert into rate_limits (key, window_start, count) values ($1, $2, 1)
     on conflict (key, window_start) do update set count = rate_limits.count + 1
     returning count::int as count`,
    [`${rule.name}:${subject}`, new Date(windowStart)],
  )
  const count = rows[0]?.count ?? 0
  // The first hit of a window is rare enough to pay for sweeping out expired counters.
  if (count === 1)
    await deps.db.query('delete from rate_limits where window_start < $1', [new Date(now - RETENTION_MS)])
  if (count > rule.limit) {
    const retryAfter = Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000))
    const minutes = Math.ceil(retryAfter / 60)
    throw new TooManyAttemptsError(`Bạn đã thử quá nhiều lần. Vui lòng thử lại sau ${minutes} phút.`, retryAfter)
  }
}
