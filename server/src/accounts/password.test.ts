import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { burnPasswordCheck, hashPassword, needsRehash, verifyPassword } from './password.ts'

describe('password hashing', () => {
  // These check the production cost itself, which the test runs otherwise lower (vitest.config.ts).
  beforeEach(() => vi.stubEnv('QH_TEST_PASSWORD_HASH', ''))
  afterEach(() => vi.unstubAllEnvs())

  it('stores a self-describing scrypt string with its own salt each time', async () => {
    const a = await hashPassword('mật khẩu dài 1')
    const b = await hashPassword('mật khẩu dài 1')
    expect(a).toMatch(/^scrypt\$131072\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/)
    expect(a).not.toBe(b)
    expect(a).not.toContain('mật khẩu')
  })

  it('accepts the right password, in either Unicode normal form, and refuses a wrong one', async () => {
    const stored = await hashPassword('Mật khẩu 1')
    expect(await verifyPassword('Mật khẩu 1', stored)).toBe(true)
    expect(await verifyPassword('Mật khẩu 1'.normalize('NFD'), stored)).toBe(true)
    expect(await verifyPassword('mật khẩu 1', stored)).toBe(false)
  })

  it('refuses anything when the stored string is damaged or asks for absurd parameters', async () => {
    const stored = await hashPassword('mat-khau-1')
    const parts = stored.split('$')
    expect(await verifyPassword('mat-khau-1', 'plain-text')).toBe(false)
    expect(await verifyPassword('mat-khau-1', ['scrypt', 2 ** 30, ...parts.slice(2)].join('$'))).toBe(false)
    expect(await verifyPassword('mat-khau-1', [...parts.slice(0, 5), ''].join('$'))).toBe(false)
  })

  it('answers false for the unknown-account check whatever the password', async () => {
    expect(await burnPasswordCheck('mat-khau-1')).toBe(false)
  })

  it('asks for a new hash only when the stored one is weaker than N=2^17, r=8, p=1', async () => {
    expect(needsRehash(await hashPassword('mat-khau-1'))).toBe(false)
    expect(needsRehash(`scrypt$${2 ** 15}$8$1$c2FsdHNhbHRzYWx0c2FsdA$${'A'.repeat(43)}`)).toBe(true)
    expect(needsRehash(`scrypt$${2 ** 17}$4$1$c2FsdHNhbHRzYWx0c2FsdA$${'A'.repeat(43)}`)).toBe(true)
    expect(needsRehash('plain-text')).toBe(false)
  })

  it('keeps the event loop turning while a password is hashed', async () => {
    let ticks = 0
    const timer = setInterval(() => ticks++, 5)
    await hashPassword('mat-khau-1')
    clearInterval(timer)
    // A synchronous hash (hundreds of ms) would let at most one tick through.
    expect(ticks).toBeGreaterThan(3)
  })

  it('hashes at OWASP strength outside a test run even when the fast test hash is asked for', async () => {
    vi.stubEnv('VITEST', '')
    vi.stubEnv('QH_TEST_PASSWORD_HASH', 'fast')
    expect(await hashPassword('mat-khau-1')).toMatch(/^scrypt\$131072\$8\$1\$/)
  })
})
