import { beforeAll, describe, expect, it } from 'vitest'
import { createTestUser, depsOf } from '../accounts/test-user.ts'
import { DailyLimitError, NotFoundError, OutsideDataError } from '../domain-errors.ts'
import { apiErrorOf } from '../http/errors.ts'
import { createTestApp, type TestApp } from '../testing/test-app.ts'
import { countedLookup } from './daily-limit.ts'

const LIMIT = 8
let t: TestApp
beforeAll(async () => {
  t = await createTestApp({ DAILY_LOOKUP_LIMIT: String(LIMIT) })
})

const usage = (token: string) => t.request('/api/auth/usage', { token })

async function fill(userId: string, n: number) {
  for (let i = 0; i < n; i++) await countedLookup(depsOf(t), userId, async () => 'ok')
}

describe('daily lookup limit', () => {
  it('shows a fresh account 0 of the limit, resetting at the next midnight in Việt Nam', async () => {
    t.clock.now = new Date('2031-03-04T16:59:00Z')
    const user = await createTestUser(t)
    const res = await usage(user.token)
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual({ count: 0, limit: LIMIT, resets_at: '2031-03-05T00:00:00.000+07:00' })
  })

  it('counts an Ok lookup and hands back its data with the usage', async () => {
    t.clock.now = new Date()
    const user = await createTestUser(t)
    const out = await countedLookup(depsOf(t), user.id, async () => ({ parcel: 'thửa 12' }))
    expect(out).toEqual({ data: { parcel: 'thửa 12' }, usage: { count: 1, limit: LIMIT } })
    expect((await usage(user.token)).body.data.count).toBe(1)
  })

  it('lets exactly 5 of 50 parallel lookups through when 5 are left', async () => {
    t.clock.now = new Date()
    const user = await createTestUser(t)
    await fill(user.id, LIMIT - 5)
    let ran = 0
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, () =>
        countedLookup(depsOf(t), user.id, async () => {
          ran++
          return 'ok'
        }),
      ),
    )
    const won = results.filter((r) => r.status === 'fulfilled')
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected')
    expect(won).toHaveLength(5)
    expect(ran).toBe(5)
    expect(refused).toHaveLength(45)
    for (const r of refused) {
      expect(r.reason).toBeInstanceOf(DailyLimitError)
      expect(apiErrorOf(r.reason as DailyLimitError)).toMatchObject({ code: 'MaxUsage', usage: { count: LIMIT, limit: LIMIT } })
    }
    expect((await usage(user.token)).body.data).toMatchObject({ count: LIMIT, limit: LIMIT })
  })

  it('does not count a lookup that fails, and passes its error on unchanged', async () => {
    t.clock.now = new Date()
    const user = await createTestUser(t)
    await fill(user.id, 2)
    const notFound = new NotFoundError('Không tìm thấy thửa đất tại vị trí này.')
    await expect(countedLookup(depsOf(t), user.id, async () => Promise.reject(notFound))).rejects.toBe(notFound)
    await expect(
      countedLookup(depsOf(t), user.id, async () => {
        throw new TypeError('hỏng')
      }),
    ).rejects.toThrow('hỏng')
    expect((await usage(user.token)).body.data.count).toBe(2)
  })

  it('lets a failed lookup give its place back even on the last one left', async () => {
    t.clock.now = new Date()
    const user = await createTestUser(t)
    await fill(user.id, LIMIT - 1)
    await expect(countedLookup(depsOf(t), user.id, async () => Promise.reject(new OutsideDataError()))).rejects.toBeInstanceOf(OutsideDataError)
    await expect(countedLookup(depsOf(t), user.id, async () => 'ok')).resolves.toMatchObject({ usage: { count: LIMIT } })
  })

  it('refuses with MaxUsage naming the local reset time once the limit is used up', async () => {
    t.clock.now = new Date('2031-07-01T05:00:00Z')
    const user = await createTestUser(t)
    await fill(user.id, LIMIT)
    const err = await countedLookup(depsOf(t), user.id, async () => 'ok').catch((e: unknown) => e)
    expect(err).toBeInstanceOf(DailyLimitError)
    expect(apiErrorOf(err as DailyLimitError).code).toBe('MaxUsage')
    expect((err as DailyLimitError).message).toContain('00:00 ngày 02/07/2031')
  })

  it('starts a new count at midnight in Việt Nam', async () => {
    t.clock.now = new Date('2031-09-09T16:59:59Z')
    const user = await createTestUser(t)
    await fill(user.id, LIMIT)
    await expect(countedLookup(depsOf(t), user.id, async () => 'ok')).rejects.toBeInstanceOf(DailyLimitError)
    t.clock.now = new Date('2031-09-09T17:00:00Z')
    await expect(countedLookup(depsOf(t), user.id, async () => 'ok')).resolves.toMatchObject({ usage: { count: 1, limit: LIMIT } })
    expect((await usage(user.token)).body.data).toEqual({ count: 1, limit: LIMIT, resets_at: '2031-09-11T00:00:00.000+07:00' })
  })

  it('answers 401 on /api/auth/usage without a token', async () => {
    const res = await t.request('/api/auth/usage')
    expect(res.status).toBe(401)
    expect(res.body.meta.code).toBe('Unauthorized')
  })
})
