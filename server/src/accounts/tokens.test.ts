import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openPostgres } from '../db/postgres.ts'
import { createTestApp, type TestApp } from '../testing/test-app.ts'
import { requestPasswordReset, resetPassword } from './password-reset.ts'
import { createTestUser, depsOf } from './test-user.ts'
import { forgetUserTokens, revokeToken, sha256, userIdForToken } from './tokens.ts'

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

  it('rechecks a remembered token in the database after 30 seconds, so a row changed there is seen', async () => {
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
  })
  afterAll(async () => {
    await other?.close()
  })
  const otherDeps = () => ({ db: other, now: () => t.clock.now })

  it('refuses a token the database holds as revoked at once, though the process accepted it a moment before', async () => {
    const user = await createTestUser(t)
    expect(await userIdForToken(otherDeps(), user.token)).toBe(user.id)
    // Revoked by another process (no announcement needed, none is sent); the clock stands still.
    await t.db.query('update auth_tokens set revoked_at = $2 where token_hash = $1', [sha256(user.token), t.clock.now])
    expect(await userIdForToken(otherDeps(), user.token)).toBeNull()
  })

  it('refuses a token in the other process at once after logout in this one', async () => {
    const user = await createTestUser(t)
    expect(await userIdForToken(otherDeps(), user.token)).toBe(user.id)
    await revokeToken(depsOf(t), user.token)
    expect(await userIdForToken(otherDeps(), user.token)).toBeNull()
  })

  it('refuses the old tokens in the other process at once after a password reset in this one', async () => {
    const user = await createTestUser(t)
    expect(await userIdForToken(otherDeps(), user.token)).toBe(user.id)
    await requestPasswordReset(depsOf(t), user.email)
    const code = /([A-Z2-9]{6}-\d{6})/.exec(t.mails.findLast((m) => m.to === user.email)?.text ?? '')?.[1]
    await resetPassword(depsOf(t), code!, 'mat-khau-moi-3')
    expect(await userIdForToken(otherDeps(), user.token)).toBeNull()
  })
})
