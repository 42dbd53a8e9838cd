import { beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../testing/test-app.ts'
import { requestPasswordReset, resetPassword } from './password-reset.ts'
import { createTestUser, depsOf } from './test-user.ts'
import { forgetUserTokens, sha256, userIdForToken } from './tokens.ts'

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
    const later = { ...depsOf(t), now: () => new Date(t.clock.now.getTime() + (t.config.tokenTtlDays * 24 + 1) * 3600 * 1000) }
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
