import type { Usage } from '#core/contract/envelope.ts'
import type { Deps } from '../deps.ts'
import { DailyLimitError } from '../domain-errors.ts'
import { formatVietnamTime, nextVietnamMidnight, toVietnamIso, vietnamDay } from '#core/time/vietnam-time.ts'

type UsageDeps = Pick<Deps, 'db' | 'config' | 'now'>

/** Today's count for /api/auth/usage; `resets_at` is the next midnight in Asia/Ho_Chi_Minh. */
export async function getUsage(deps: UsageDeps, userId: string): Promise<{ count: number; limit: number; resets_at: string }> {
  const now = deps.now()
  const rows = await deps.db.query<{ count: number }>('select count::int as count from usage_daily where user_id = $1 and day = $2::date', [userId, vietnamDay(now)])
  return { count: rows[0]?.count ?? 0, limit: deps.config.dailyLookupLimit, resets_at: toVietnamIso(nextVietnamMidnight(now)) }
}

/**
 * Runs one counted lookup. One lookup is reserved for the caller's local day in a single atomic
 * statement (N parallel calls with k left succeed exactly k times); when none is left it answers
 * 429 MaxUsage with meta.usage. If `lookup` throws — NotFound, LocationIncorrect, anything — the
 * reservation is given back and the error rethrown, so only answers that end Ok are counted.
 */
export async function countedLookup<T>(deps: Pick<Deps, 'db' | 'config' | 'now' | 'logger'>, userId: string, lookup: () => Promise<T>): Promise<{ data: T; usage: Usage }> {
  const now = deps.now()
  const day = vietnamDay(now)
  const limit = deps.config.dailyLookupLimit
  const reserved = await deps.db.query<{ count: number }>(
    `insert into usage_daily (user_id, day, count) values ($1, $2::date, 1)
     on conflict (user_id, day) do update set count = usage_daily.count + 1 where usage_daily.count < $3
     returning count::int as count`,
    [userId, day, limit],
  )
  const count = reserved[0]?.count
  if (count === undefined) {
    throw new DailyLimitError(`Bạn đã dùng hết ${limit} lượt tra cứu hôm nay. Lượt tra cứu được làm mới lúc ${formatVietnamTime(nextVietnamMidnight(now))}.`, {
      count: limit,
      limit,
    })
  }
  try {
    return { data: await lookup(), usage: { count, limit } }
  } catch (err) {
    await deps.db
      .query('update usage_daily set count = count - 1 where user_id = $1 and day = $2::date and count > 0', [userId, day])
      .catch((refundErr: unknown) => deps.logger.error('usage refund failed', { userId, error: String(refundErr) }))
    throw err
  }
}
