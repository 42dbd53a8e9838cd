import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { call, removeTempDirs, startServer, tempDir, type ServerProc } from '../../../tests/faults/process.ts'

/*
 * Two real server processes on one PostgreSQL. A logout or a password reset answered by one must be
 * refused by the other from the very next request: once the answer is out, no process may accept the
 * token. Each trial first has the other process accept the token (so it had every chance to remember
 * it), then ends the session through the first and asks the other at once, several requests at a time.
 */
const url = process.env.DATABASE_URL
const TRIALS = 16

describe.skipIf(!url)('token revocation across two server processes on PostgreSQL', () => {
  const servers: ServerProc[] = []
  let ip = 0
  const nextIp = () => `10.30.${Math.floor(++ip / 250)}.${ip % 250}`

  beforeAll(async () => {
    const env = { DATABASE_URL: url!, DEMO_DATA: 'false', TRUST_PROXY: 'true' }
    for (const name of ['a', 'b']) servers.push(await startServer({ dataDir: tempDir(`qh-revoke-${name}-`), env }))
  })

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()))
    removeTempDirs()
  })

  const [a, b] = [() => servers[0]!, () => servers[1]!]
  const account = async () => {
    const creds = {
      email: `revoke-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`,
      password: 'mat-khau-du-dai-1',
    }
    const reg = await call(`${a().url}/api/auth/register`, {
      method: 'POST',
      json: { name: 'Thử', ...creds },
      ip: nextIp(),
    })
    expect(reg.status).toBe(201)
    return creds
  }
  const login = async (creds: { email: string; password: string }) => {
    const res = await call(`${a().url}/api/auth/login`, { method: 'POST', json: creds, ip: nextIp() })
    expect(res.status).toBe(200)
    return res.body.data.access_token as string
  }
  /** What the other process answers right after: three requests at once, as a map screen sends them. */
  const otherAnswers = (token: string) =>
    Promise.all([1, 2, 3].map(() => call(`${b().url}/api/auth/me`, { token }).then((r) => r.status)))

  it('refuses a token in the other process from the first request after logout is answered', async () => {
    const accepted: number[] = []
    let creds = await account()
    for (let trial = 0; trial < TRIALS; trial++) {
      // Logins are rate limited per e-mail; a fresh account every few trials keeps well under it.
      if (trial > 0 && trial % 4 === 0) creds = await account()
      const token = await login(creds)
      expect((await call(`${b().url}/api/auth/me`, { token })).status).toBe(200)
      expect((await call(`${a().url}/api/auth/logout`, { method: 'POST', token })).status).toBe(200)
      const after = await otherAnswers(token)
      if (after.some((s) => s !== 401)) accepted.push(trial)
    }
    expect(accepted, `trials in which the other process still accepted the token`).toEqual([])
  }, 300_000)

  it('refuses every old token in the other process from the first request after a password reset is answered', async () => {
    const creds = await account()
    const token = await login(creds)
    expect((await call(`${b().url}/api/auth/me`, { token })).status).toBe(200)
    expect(
      (await call(`${a().url}/api/auth/forgotPassword`, { method: 'POST', json: { email: creds.email }, ip: nextIp() }))
        .status,
    ).toBe(200)
    // Without SMTP the mail is a file in the first process's outbox.
    const outbox = join(a().dataDir, 'outbox')
    const codeIn = () => {
      try {
        const mail = readdirSync(outbox)
          .map((f) => readFileSync(join(outbox, f), 'utf8'))
          .find((m) => m.includes(creds.email))
        return mail ? /([A-Z2-9]{6}-\d{6})/.exec(mail)?.[1] : undefined
      } catch {
        return undefined
      }
    }
    await expect.poll(codeIn, { timeout: 30_000 }).toBeDefined()
    const reset = await call(`${a().url}/api/auth/resetPassword`, {
      method: 'POST',
      json: { code: codeIn(), new_password: 'mat-khau-moi-du-dai-2' },
      ip: nextIp(),
    })
    expect(reset.status).toBe(200)
    expect(await otherAnswers(token)).toEqual([401, 401, 401])
  }, 300_000)
})
