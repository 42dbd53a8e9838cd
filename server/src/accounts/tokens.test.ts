import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openPostgres } from '../db/postgres.ts'
import { createTestApp, type TestApp } from '../testing/test-app.ts'
import { requestPasswordReset, resetPassword } from './password-reset.ts'
import { createTestUser, depsOf } from './test-user.ts'
import { forgetUserTokens, revokeToken, sha256, userIdForToken, watchRevocations } from './tokens.ts'

describe('token checks remembered between requests', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp()
  })

  it('refuses a token at once after logout, though the previous request had just accepted it', async () => {
    const user = await createTestUser(t)
    expect((await t.request('/api/auth/me', { token: user.token })).status).toBe(200)
    expect((await t.request('/api/auth/logout', { method: 'POST', token: user.token })).status).toBe(200)
    expect((await t.request('/api/auth/me', { token: user.token })).status).toBe(401)
  })

  it('refuses a remembered token once it expires', async () => {
    const user = await createTestUser(t)
    expect(await userIdForToken(depsOf(t), user.token)).toBe(user.id)
    const later = {
      ...depsOf(t),
      now: () => new Date(t.clock.now.getTime() + (t.config.tokenTtlDays * 24 + 1) * 3600 * 1000),
    }
    expect(await userIdForToken(later, user.token)).toBeNull()
  })

  it('refuses the tokens of an account whose tokens were all revoked as soon as the account is forgotten', async () => {
    const user = await createTestUser(t)
    expect(await userIdForToken(depsOf(t), user.token)).toBe(user.id)
    await t.db.query('update auth_tokens set revoked_at = $2 where user_id = $1', [user.id, t.clock.now])
    forgetUserTokens(t.db, user.id)
    expect(await userIdForToken(depsOf(t), user.token)).toBeNull()
  })

  it('notices a revocation made by another server process within 30 seconds', async () => {
    const user = await createTestUser(t)
    expect(await userIdForToken(depsOf(t), user.token)).toBe(user.id)
    await t.db.query('update auth_tokens set revoked_at = $2 where token_hash = $1', [sha256(user.token), t.clock.now])
    const later = { ...depsOf(t), now: () => new Date(t.clock.now.getTime() + 30_000) }
    expect(await userIdForToken(later, user.token)).toBeNull()
  })

  it('ends a remembered session when the password is reset', async () => {
    const user = await createTestUser(t)
    expect((await t.request('/api/auth/me', { token: user.token })).status).toBe(200)
    // The domain functions, not the routes: the routes' per-IP rate limit is shared by every test file.
    await requestPasswordReset(depsOf(t), user.email)
    const code = /([A-Z2-9]{6}-\d{6})/.exec(t.mails.findLast((m) => m.to === user.email)?.text ?? '')?.[1]
    expect(code).toBeDefined()
    await resetPassword(depsOf(t), code!, 'mat-khau-moi-2')
    expect((await t.request('/api/auth/me', { token: user.token })).status).toBe(401)
  })
})

describe.skipIf(!process.env.DATABASE_URL)('two server processes on one PostgreSQL', () => {
  let t: TestApp
  let other: Awaited<ReturnType<typeof openPostgres>>
  beforeAll(async () => {
    t = await createTestApp()
    other = await openPostgres(process.env.DATABASE_URL!)
    await watchRevocations(depsOf(t))
    await watchRevocations({ db: other, logger: t.logger })
  })
  afterAll(async () => {
    await other?.close()
  })
  const otherDeps = () => ({ db: other, now: () => t.clock.now })

  it('drops a remembered token as soon as any connection announces its revocation, without waiting for the recheck', async () => {
    const user = await createTestUser(t)
    expect(await userIdForToken(depsOf(t), user.token)).toBe(user.id)
    // What another process's logout sends; the clock stands still, so only the announcement can end it.
    await t.db.query(
      `update auth_tokens set revoked_at = $2 where token_hash = $1 returning pg_notify('qh_tokens_revoked', 'token:' || $1)`,
      [sha256(user.token), t.clock.now],
    )
    await expect.poll(() => userIdForToken(depsOf(t), user.token), { timeout: 5000 }).toBeNull()
  })

  it('drops every remembered token of an account announced as reset', async () => {
    const user = await createTestUser(t)
    expect(await userIdForToken(depsOf(t), user.token)).toBe(user.id)
    await t.db.transaction(async (tx) => {
      await tx.query('update auth_tokens set revoked_at = $2 where user_id = $1', [user.id, t.clock.now])
      await tx.query(`select pg_notify('qh_tokens_revoked', 'user:' || $1::text)`, [user.id])
    })
    await expect.poll(() => userIdForToken(depsOf(t), user.token), { timeout: 5000 }).toBeNull()
  })

  it('refuses a token in the other process at once after logout in this one', async () => {
    const user = await createTestUser(t)
    expect(await userIdForToken(otherDeps(), user.token)).toBe(user.id)
    await revokeToken(depsOf(t), user.token)
    await expect.poll(() => userIdForToken(otherDeps(), user.token), { timeout: 5000 }).toBeNull()
  })

  it('refuses the old tokens in the other process at once after a password reset in this one', async () => {
    const user = await createTestUser(t)
    expect(await userIdForToken(otherDeps(), user.token)).toBe(user.id)
    await requestPasswordReset(depsOf(t), user.email)
    const code = /([A-Z2-9]{6}-\d{6})/.exec(t.mails.findLast((m) => m.to === user.email)?.text ?? '')?.[1]
    await resetPassword(depsOf(t), code!, 'mat-khau-moi-3')
    await expect.poll(() => userIdForToken(otherDeps(), user.token), { timeout: 5000 }).toBeNull()
  })

  it('checks every token in the database while its watch is lost, and remembers them again once it is back', async () => {
    const user = await createTestUser(t)
    expect(await userIdForToken(otherDeps(), user.token)).toBe(user.id)
    // Cut every listening session, as a PostgreSQL restart or a proxy time-out would.
    const logs = t.logs.length
    await t.db.query(
      `select pg_terminate_backend(pid) from pg_stat_activity where query = 'listen qh_tokens_revoked' and pid <> pg_backend_pid()`,
    )
    await expect
      .poll(() => t.logs.slice(logs).some((l) => l.includes('token revocation watch lost')), { timeout: 5000 })
      .toBe(true)
    // Revoked without an announcement while nobody listens: the other process must not trust its memory.
    await t.db.query('update auth_tokens set revoked_at = $2 where token_hash = $1', [sha256(user.token), t.clock.now])
    expect(await userIdForToken(otherDeps(), user.token)).toBeNull()
    await expect
      .poll(() => t.logs.slice(logs).filter((l) => l.includes('token revocation watch')).length >= 4, {
        timeout: 15_000,
      })
      .toBe(true)
    const next = await createTestUser(t)
    expect(await userIdForToken(otherDeps(), next.token)).toBe(next.id)
    await revokeToken(depsOf(t), next.token)
    await expect.poll(() => userIdForToken(otherDeps(), next.token), { timeout: 5000 }).toBeNull()
  })
})
