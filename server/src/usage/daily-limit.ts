import type { Usage } from '#core/contract/envelope.ts'
import { outsideStatementScope } from '../db/statement-scope.ts'
import type { Deps } from '../deps.ts'
import { DailyLimitError } from '../domain-errors.ts'
import { formatVietnamTime, nextVietnamMidnight, toVietnamIso, vietnamDay } from '#core/time/vietnam-time.ts'

type UsageDeps = Pick<Deps, 'db' | 'config' | 'now'>

/** Today's count for /api/auth/usage; `resets_at` is the next midnight in Asia/Ho_Chi_Minh. */
export async function getUsage(
  deps: UsageDeps,
  userId: string,
): Promise<{ count: number; limit: number; resets_at: string }> {
  const now = deps.now()
  const rows = await deps.db.query<{ count: number }>(
    'select count::int as count from usage_daily where user_id = $1 and day = $2::date',
    [userId, vietnamDay(now)],
  )
  return {
    count: rows[0]?.count ?? 0,
    limit: deps.config.dailyLookupLimit,
    resets_at: toVietnamIso(nextVietnamMidnight(now)),
  }
}

/** How many days back the account page lists counted lookups. */
export const USAGE_DAYS = 30

/**
 * Counted lookups per day over the last USAGE_DAYS days of Việt Nam's calendar (today included),
 * newest first; days without a lookup are left out.
 */
export async function getUsageDays(
  deps: UsageDeps,
  userId: string,
): Promise<{ days: { day: string; count: number }[]; total: number }> {
  const rows = await deps.db.query<{ day: string; count: number }>(
    `select to_char(day, 'YYYY-MM-DD') as day, count::int as count from usage_daily
      where user_id = $1 and day > $2::date - $3::int and day <= $2::date and count > 0 order by day desc`,
    [userId, vietnamDay(deps.now()), USAGE_DAYS],
  )
  return { days: rows, total: rows.reduce((sum, r) => sum + r.count, 0) }
}

/** 429 MaxUsage: the day's lookups are used up, and when they come back. */
const usedUp = (limit: number, now: Date) =>
  new DailyLimitError(
    `Bạn đã dùng hết ${limit} lượt tra cứu hôm nay. Lượt tra cứu được làm mới lúc ${formatVietnamTime(nextVietnamMidnight(now))}.`,
    { count: limit, limit },
  )

/**
 * Gives one lookup of `day` back; a failure is logged (the count stays one too high, never too low). Run
 * outside the request's statement scope: its client may be gone (which cancels the request's statements),
 * and the count must still be right.
 */
const refundOne = (deps: Pick<Deps, 'db' | 'logger'>, userId: string, day: string) =>
  outsideStatementScope(() =>
    deps.db.query('update usage_daily set count = count - 1 where user_id = $1 and day = $2::date and count > 0', [
      userId,
      day,
    ]),
  ).then(
    () => undefined,
    (err: unknown) => deps.logger.error('usage refund failed', { userId, error: String(err) }),
  )

/** A counted lookup's answer: one row, `found` true when the answer is Ok (and so counts). */
export type Answer = { found: boolean }

/**
 * The answer, and the usage when it was found and counted (null when it was not found: nothing was
 * counted). `refund` gives the lookup back, for a caller whose own work after the statement fails.
 */
export type CountedAnswer<R extends Answer> = { row: R; usage: Usage | null; refund: () => Promise<void> }

/**
 * Runs a counted lookup in ONE statement (one round trip to the database): `answerSql` — read-only,
 * exactly one row with a boolean column `found` — is wrapped so that the same statement reserves one
 * lookup for the caller's local day when, and only when, `found` is true. The reservation is atomic
 * (insert … on conflict … where count < limit: N parallel calls with k left succeed exactly k times).
 * An answer that is not found (NotFound, LocationIncorrect …) is never counted, so there is nothing to
 * give back, and a statement that fails commits no count either. `answerSql` uses $1…$n for `params`;
 * the wrapper adds its three after them. `generic`: the statement is planned once per connection (QueryOptions).
 *
 * Answers 429 MaxUsage (with meta.usage) when none is left: for a found answer that could not be
 * counted, and for one not found when the day's count was already used up (the limit answers first,
 * whatever the point).
 */
export async function countedQuery<R extends Answer>(
  deps: Pick<Deps, 'db' | 'config' | 'now' | 'logger'>,
  userId: string,
  answerSql: string,
  params: unknown[],
  prepare: string,
  opts: { generic?: boolean } = {},
): Promise<CountedAnswer<R>> {
  const now = deps.now()
  const day = vietnamDay(now)
  const limit = deps.config.dailyLookupLimit
  const [u, d, l] = [params.length + 1, params.length + 2, params.length + 3]
  const [row] = await deps.db.query<R & { qh_reserved: number | null; qh_used: number | null }>(
    `with answer as (${answerSql}),
     reserved as (
       insert into usage_daily (user_id, day, count) select $${u}::uuid, $${d}::date, 1 from answer where answer.found
       on conflict (user_id, day) do update set count = usage_daily.count + 1 where usage_daily.count < $${l}::int
       returning count::int as count)
     select answer.*, (select count from reserved) as qh_reserved,
       (select count::int from usage_daily where user_id = $${u}::uuid and day = $${d}::date) as qh_used
     from answer`,
    [...params, userId, day, limit],
    { prepare: `counted-${prepare}`, generic: opts.generic },
  )
  if (!row) throw new Error(`counted lookup ${prepare} answered no row`)
  const { qh_reserved: reserved, qh_used: used, ...answer } = row
  const refund = () => refundOne(deps, userId, day)
  if (reserved !== null) return { row: answer as unknown as R, usage: { count: reserved, limit }, refund }
  if (row.found || (used ?? 0) >= limit) throw usedUp(limit, now)
  return { row: answer as unknown as R, usage: null, refund: async () => {} }
}

/**
 * Work counted as one lookup that is more than one statement (a plan comparison): one lookup is
 * reserved first, atomically as countedQuery does (none left: 429 MaxUsage, whatever was asked), and
 * given back when the work fails (NotFound, BadRequest, its client gone), so only an answer counts.
 */
export async function countedWork<T>(
  deps: Pick<Deps, 'db' | 'config' | 'now' | 'logger'>,
  userId: string,
  work: () => Promise<T>,
): Promise<{ data: T; usage: Usage }> {
  const now = deps.now()
  const day = vietnamDay(now)
  const limit = deps.config.dailyLookupLimit
  const [reserved] = await deps.db.query<{ count: number }>(
    `insert into usage_daily (user_id, day, count) values ($1::uuid, $2::date, 1)
     on conflict (user_id, day) do update set count = usage_daily.count + 1 where usage_daily.count < $3::int
     returning count::int as count`,
    [userId, day, limit],
  )
  if (!reserved) throw usedUp(limit, now)
  try {
    return { data: await work(), usage: { count: reserved.count, limit } }
  } catch (err) {
    await refundOne(deps, userId, day)
    throw err
  }
}
