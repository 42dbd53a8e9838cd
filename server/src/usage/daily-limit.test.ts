import { beforeAll, describe, expect, it } from 'vitest'
import { createTestUser, depsOf } from '../accounts/test-user.ts'
import { DailyLimitError } from '../domain-errors.ts'
import { apiErrorOf } from '../http/errors.ts'
import { createTestApp, type TestApp } from '../testing/test-app.ts'
import { withStatementScope } from '../db/statement-scope.ts'
import { countedQuery } from './daily-limit.ts'

/** A lookup answered by the database: found or not, with a value to hand back. */
const ANSWER_SQL = 'select $1::boolean as found, $2::text as parcel'
const lookup = (userId: string, found = true) =>
  countedQuery<{ found: boolean; parcel: string }>(depsOf(t), userId, ANSWER_SQL, [found, 'thửa 12'], 'test')

const LIMIT = 8
let t: TestApp
beforeAll(async () => {
  t = await createTestApp({ DAILY_LOOKUP_LIMIT: String(LIMIT) })
})

const usage = (token: string) => t.request('/api/auth/usage', { token })

async function fill(userId: string, n: number) {
  for (let i = 0; i < n; i++) await lookup(userId)
}

describe('daily lookup limit', () => {
  it('shows a fresh account 0 of the limit, resetting at the next midnight in Việt Nam', async () => {
    t.clock.now = new Date('2031-03-04T16:59:00Z')
    const user = await createTestUser(t)
    const res = await usage(user.token)
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual({ count: 0, limit: LIMIT, resets_at: '2031-03-05T00:00:00.000+07:00' })
  })

  it('counts an Ok lookup and hands back its answer with the usage', async () => {
    t.clock.now = new Date()
    const user = await createTestUser(t)
    const out = await lookup(user.id)
    expect(out).toMatchObject({ row: { found: true, parcel: 'thửa 12' }, usage: { count: 1, limit: LIMIT } })
    expect(Object.keys(out.row).sort()).toEqual(['found', 'parcel'])
    expect((await usage(user.token)).body.data.count).toBe(1)
  })

  it('lets exactly 5 of 50 parallel lookups through when 5 are left', async () => {
    t.clock.now = new Date()
    const user = await createTestUser(t)
    await fill(user.id, LIMIT - 5)
    const results = await Promise.allSettled(Array.from({ length: 50 }, () => lookup(user.id)))
    const won = results.filter((r) => r.status === 'fulfilled')
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected')
    expect(won).toHaveLength(5)
    expect(won.map((r) => r.value.usage?.count).sort()).toEqual([4, 5, 6, 7, 8])
    expect(refused).toHaveLength(45)
    for (const r of refused) {
      expect(r.reason).toBeInstanceOf(DailyLimitError)
      expect(apiErrorOf(r.reason as DailyLimitError)).toMatchObject({
        code: 'MaxUsage',
        usage: { count: LIMIT, limit: LIMIT },
      })
    }
    expect((await usage(user.token)).body.data).toMatchObject({ count: LIMIT, limit: LIMIT })
  })

  it('does not count an answer that is not found, nor a statement that fails', async () => {
    t.clock.now = new Date()
    const user = await createTestUser(t)
    await fill(user.id, 2)
    await expect(lookup(user.id, false)).resolves.toMatchObject({ row: { found: false }, usage: null })
    await expect(
      countedQuery(depsOf(t), user.id, 'select 1 / $1::int = 1 as found', [0], 'test-fails'),
    ).rejects.toThrow()
    expect((await usage(user.token)).body.data.count).toBe(2)
  })

  it('answers a lookup that is not found even on the last one left, and counts the next found one', async () => {
    t.clock.now = new Date()
    const user = await createTestUser(t)
    await fill(user.id, LIMIT - 1)
    await expect(lookup(user.id, false)).resolves.toMatchObject({ usage: null })
    await expect(lookup(user.id)).resolves.toMatchObject({ usage: { count: LIMIT } })
  })

  it('refuses a lookup that is not found with MaxUsage too once the limit is used up', async () => {
    t.clock.now = new Date()
    const user = await createTestUser(t)
    await fill(user.id, LIMIT)
    await expect(lookup(user.id, false)).rejects.toBeInstanceOf(DailyLimitError)
  })

  it('gives a counted lookup back when asked to (work after the statement failed)', async () => {
    t.clock.now = new Date()
    const user = await createTestUser(t)
    await fill(user.id, 3)
    const { refund } = await lookup(user.id)
    await refund()
    expect((await usage(user.token)).body.data.count).toBe(3)
  })

  it('gives a counted lookup back even when the client of its request has gone away', async () => {
    t.clock.now = new Date()
    const user = await createTestUser(t)
    await fill(user.id, 3)
    const client = new AbortController()
    await withStatementScope({ signal: client.signal, budgetMs: 10_000 }, async () => {
      const { refund } = await lookup(user.id)
      client.abort()
      await refund()
    })
    expect((await usage(user.token)).body.data.count).toBe(3)
  })

  it('refuses with MaxUsage naming the local reset time once the limit is used up', async () => {
    t.clock.now = new Date('2031-07-01T05:00:00Z')
    const user = await createTestUser(t)
    await fill(user.id, LIMIT)
    const err = await lookup(user.id).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(DailyLimitError)
    expect(apiErrorOf(err as DailyLimitError).code).toBe('MaxUsage')
    expect((err as DailyLimitError).message).toContain('00:00 ngày 02/07/2031')
  })

  it('starts a new count at midnight in Việt Nam', async () => {
    t.clock.now = new Date('2031-09-09T16:59:59Z')
    const user = await createTestUser(t)
    await fill(user.id, LIMIT)
    await expect(lookup(user.id)).rejects.toBeInstanceOf(DailyLimitError)
    t.clock.now = new Date('2031-09-09T17:00:00Z')
    await expect(lookup(user.id)).resolves.toMatchObject({ usage: { count: 1, limit: LIMIT } })
    expect((await usage(user.token)).body.data).toEqual({
      count: 1,
      limit: LIMIT,
      resets_at: '2031-09-11T00:00:00.000+07:00',
    })
  })

  it('answers 401 on /api/auth/usage without a token', async () => {
    const res = await t.request('/api/auth/usage')
    expect(res.status).toBe(401)
    expect(res.body.meta.code).toBe('Unauthorized')
  })
})
