import { randomBytes, scryptSync } from 'node:crypto'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { sha256 } from '../../accounts/tokens.ts'
import type { Database } from '../../db/index.ts'
import { createTestApp, uniqueEmail, type TestApp } from '../../testing/test-app.ts'
import { vietnamDay } from '#core/time/vietnam-time.ts'

// Trusted proxy headers let every test speak from its own IP, so per-IP limits never collide
// across tests sharing one database.
let t: TestApp
beforeAll(async () => {
  t = await createTestApp({ TRUST_PROXY: 'true', PUBLIC_URL: 'https://quyhoach.example.vn', TOKEN_TTL_DAYS: '30' })
})

afterEach(() => vi.unstubAllEnvs())
const randomIp = () => `10.${[0, 0, 0].map(() => Math.floor(Math.random() * 256)).join('.')}`
const password = 'mat-khau-dung-1'

function post(path: string, json: unknown, opts: { ip?: string; token?: string } = {}) {
  return t.request(`/api/auth/${path}`, {
    method: 'POST',
    json,
    token: opts.token,
    headers: { 'x-forwarded-for': opts.ip ?? randomIp() },
  })
}

async function register(name = 'Nguyễn Văn A', email = uniqueEmail()) {
  const res = await post('register', { name, email, password })
  expect(res.status).toBe(201)
  return { email, name }
}

async function login(email: string, pw = password, ip?: string) {
  return post('login', { email, password: pw }, { ip })
}

async function token(email: string) {
  const res = await login(email)
  expect(res.status).toBe(200)
  return res.body.data.access_token as string
}

const me = (tok?: string) => t.request('/api/auth/me', { token: tok })

describe('POST /api/auth/register', () => {
  it('creates an account and answers 201 with the name and the trimmed, lower-cased e-mail', async () => {
    const email = uniqueEmail('Reg')
    const res = await post('register', { name: '  Trần Thị Bích  ', email: `  ${email.toUpperCase()} `, password })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({
      meta: { code: 'Ok', status: 'OK' },
      data: { name: 'Trần Thị Bích', email: email.toLowerCase() },
    })
  })

  it('answers 409 Conflict when the e-mail is already registered, whatever its case and spaces', async () => {
    const { email } = await register()
    const res = await post('register', { name: 'Khác', email: ` ${email.toUpperCase()}  `, password })
    expect(res.status).toBe(409)
    expect(res.body.meta.code).toBe('Conflict')
    expect(res.body.errors.email).toHaveLength(1)
  })

  it('lets exactly one of ten parallel registrations of one e-mail win', async () => {
    const email = uniqueEmail('race')
    const all = await Promise.all(
      Array.from({ length: 10 }, (_, i) => post('register', { name: `Người ${i}`, email, password })),
    )
    expect(all.filter((r) => r.status === 201)).toHaveLength(1)
    expect(all.filter((r) => r.status === 409)).toHaveLength(9)
    const rows = await t.db.query<{ n: number }>('select count(*)::int as n from users where email = $1', [email])
    expect(rows[0]?.n).toBe(1)
  })

  it('answers 400 BadRequest for malformed JSON', async () => {
    const res = await t.request('/api/auth/register', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"name": "A", ',
    })
    expect(res.status).toBe(400)
    expect(res.body.meta.code).toBe('BadRequest')
  })

  it('answers 400 BadRequest when the body is not JSON', async () => {
    const res = await t.request('/api/auth/register', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'name=A',
    })
    expect(res.status).toBe(400)
    expect(res.body.meta.code).toBe('BadRequest')
  })

  it('names every missing field', async () => {
    const res = await post('register', {})
    expect(res.status).toBe(400)
    expect(Object.keys(res.body.errors).sort()).toEqual(['email', 'name', 'password'])
  })

  it('names every field of the wrong type', async () => {
    const res = await post('register', { name: 42, email: ['a@b.vn'], password: { x: 1 } })
    expect(res.status).toBe(400)
    expect(Object.keys(res.body.errors).sort()).toEqual(['email', 'name', 'password'])
  })

  it('answers 400 for a JSON body that is not an object', async () => {
    for (const body of [null, 'chuỗi', [1, 2], 7]) {
      const res = await post('register', body)
      expect(res.status).toBe(400)
    }
  })

  it('refuses 10 kB strings in every field with 400, never 500', async () => {
    const long = 'x'.repeat(10_240)
    const res = await post('register', { name: long, email: `${long}@example.vn`, password: long })
    expect(res.status).toBe(400)
    expect(Object.keys(res.body.errors).sort()).toEqual(['email', 'name', 'password'])
    const loginRes = await login(`${long}@example.vn`, long)
    expect(loginRes.status).toBe(400)
  })

  it('clearly refuses e-mails with accented or non-Latin letters', async () => {
    for (const email of ['ngọc@example.vn', 'user@bücher.de', 'пользователь@пример.рф']) {
      const res = await post('register', { name: 'Ngọc', email, password })
      expect(res.status).toBe(400)
      expect(res.body.errors.email[0]).toMatch(/không dấu/)
    }
  })

  it('refuses a password shorter than 8 characters', async () => {
    const res = await post('register', { name: 'A', email: uniqueEmail(), password: '1234567' })
    expect(res.status).toBe(400)
    expect(res.body.errors.password).toBeDefined()
  })

  it('refuses a password or a name with a lone surrogate, which would be stored as another character', async () => {
    const email = uniqueEmail('surrogate')
    const res = await post('register', { name: 'Nguyễn Văn A', email, password: 'mat-khau-\ud800-1' })
    expect(res.status).toBe(400)
    expect(Object.keys(res.body.errors)).toEqual(['password'])
    const named = await post('register', { name: 'Nguyễn \udc00', email, password })
    expect(Object.keys(named.body.errors)).toEqual(['name'])
    // Paired surrogates are one real character and stay allowed.
    expect((await post('register', { name: 'Nguyễn 😀', email, password: 'mat-khau-😀-1' })).status).toBe(201)
    expect((await login(email, 'mat-khau-\ufffd-1')).status).toBe(401)
    expect((await login(email, 'mat-khau-😀-1')).status).toBe(200)
  })

  it('stores SQL and HTML in a name verbatim and gives it back as JSON text', async () => {
    const name = `Robert'); drop table users;-- <script>alert("x")</script>`
    const { email } = await register(name)
    const res = await me(await token(email))
    expect(res.headers.get('content-type')).toMatch(/^application\/json/)
    expect(res.body.data.name).toBe(name)
    const rows = await t.db.query<{ n: number }>('select count(*)::int as n from users where email = $1', [email])
    expect(rows[0]?.n).toBe(1)
  })
})

describe('POST /api/auth/login and tokens', () => {
  it('issues a token that opens /me and expires TOKEN_TTL_DAYS later, in ISO 8601 with an offset', async () => {
    const { email, name } = await register('Lê Văn Đăng Nhập')
    const res = await login(email)
    expect(res.status).toBe(200)
    const { access_token, expires_at } = res.body.data
    expect(res.body.data.name).toBe(name)
    expect(access_token).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(expires_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/)
    expect(Date.parse(expires_at) - t.clock.now.getTime()).toBe(30 * 24 * 3600 * 1000)
    const profile = await me(access_token)
    expect(profile.status).toBe(200)
    expect(profile.body.data).toMatchObject({ name, email })
    expect(profile.body.data.created_at).toMatch(/\+07:00$/)
  })

  it('accepts the e-mail in any case and with spaces around it', async () => {
    const { email } = await register()
    expect((await login(`  ${email.toUpperCase()}\t`)).status).toBe(200)
  })

  it('answers the same 401 for a wrong password and for an unknown e-mail', async () => {
    const { email } = await register()
    const wrong = await login(email, 'mat-khau-sai-1')
    const unknown = await login(uniqueEmail('khong-co'))
    expect(wrong.status).toBe(401)
    expect(unknown.status).toBe(401)
    expect(wrong.body).toEqual(unknown.body)
  })

  it('replaces a hash made with the older, weaker scrypt parameters at the next successful login', async () => {
    // At the production cost, which the test runs otherwise lower (vitest.config.ts).
    vi.stubEnv('QH_TEST_PASSWORD_HASH', '')
    const { email } = await register()
    const salt = randomBytes(16)
    const key = scryptSync(password, salt, 32, { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 })
    const legacy = ['scrypt', 2 ** 15, 8, 1, salt.toString('base64url'), key.toString('base64url')].join('$')
    await t.db.query('update users set password_hash = $2 where email = $1', [email, legacy])
    const stored = async () =>
      (await t.db.query<{ password_hash: string }>('select password_hash from users where email = $1', [email]))[0]
        ?.password_hash
    expect((await login(email, 'mat-khau-sai-1')).status).toBe(401)
    expect(await stored()).toBe(legacy)
    expect((await login(email)).status).toBe(200)
    expect(await stored()).toMatch(/^scrypt\$131072\$8\$1\$/)
    expect((await login(email)).status).toBe(200)
  })

  it('stores only the hash of a token and never logs the token', async () => {
    const { email } = await register()
    const tok = await token(email)
    const raw = await t.db.query('select 1 from auth_tokens where token_hash = $1', [tok])
    const hashed = await t.db.query('select 1 from auth_tokens where token_hash = $1', [sha256(tok)])
    expect(raw).toHaveLength(0)
    expect(hashed).toHaveLength(1)
    await me(tok)
    expect(t.logs.join('\n')).not.toContain(tok)
  })

  it('answers 401 Unauthorized without a token, with an unknown one and with a malformed header', async () => {
    const unknown = 'A'.repeat(43)
    const cases: Record<string, string>[] = [
      {},
      { authorization: `Bearer ${unknown}` },
      { authorization: 'Basic YTpi' },
      { authorization: 'Bearer' },
    ]
    for (const headers of cases) {
      const res = await t.request('/api/auth/me', { headers })
      expect(res.status).toBe(401)
      expect(res.body.meta.code).toBe('Unauthorized')
    }
  })

  it('answers 401 for a token past its expiry and accepts it until then', async () => {
    const { email } = await register()
    const tok = await token(email)
    const issuedAt = t.clock.now
    try {
      t.clock.now = new Date(issuedAt.getTime() + 30 * 24 * 3600 * 1000 - 1000)
      expect((await me(tok)).status).toBe(200)
      t.clock.now = new Date(issuedAt.getTime() + 30 * 24 * 3600 * 1000 + 1000)
      const res = await me(tok)
      expect(res.status).toBe(401)
      expect(res.body.meta.code).toBe('Unauthorized')
    } finally {
      t.clock.now = issuedAt
    }
  })

  it('revokes the token on logout while the account’s other tokens keep working', async () => {
    const { email } = await register()
    const first = await token(email)
    const second = await token(email)
    const out = await post('logout', null, { token: first })
    expect(out.status).toBe(200)
    expect(out.body.data).toBeNull()
    expect((await me(first)).status).toBe(401)
    expect((await post('logout', null, { token: first })).status).toBe(401)
    expect((await me(second)).status).toBe(200)
  })
})

describe('the account page: changing the password and the last 30 days of lookups', () => {
  it('changes the password after checking the current one; the asking token keeps working, the others stop', async () => {
    const { email } = await register()
    const asking = await token(email)
    const other = await token(email)
    const wrong = await post(
      'changePassword',
      { current_password: 'sai-mat-khau', new_password: 'moi-mat-khau-2' },
      { token: asking },
    )
    expect(wrong.status).toBe(400)
    expect(wrong.body.errors.current_password).toEqual(['Mật khẩu hiện tại không đúng.'])
    expect((await login(email)).status).toBe(200)

    const short = await post('changePassword', { current_password: password, new_password: 'ngan' }, { token: asking })
    expect(short.status).toBe(400)
    expect(short.body.errors.new_password).toHaveLength(1)

    const done = await post(
      'changePassword',
      { current_password: password, new_password: 'moi-mat-khau-2' },
      { token: asking },
    )
    expect(done.status).toBe(200)
    expect(done.body.message).toBe('Đã đổi mật khẩu. Các thiết bị khác đã được đăng xuất.')
    expect((await me(asking)).status).toBe(200)
    expect((await me(other)).status).toBe(401)
    expect((await login(email)).status).toBe(401)
    expect((await login(email, 'moi-mat-khau-2')).status).toBe(200)
  })

  it('refuses to change a password without a token', async () => {
    const res = await post('changePassword', { current_password: password, new_password: 'moi-mat-khau-2' })
    expect(res.status).toBe(401)
  })

  it('lists the counted lookups of each day of the last 30, newest first, with their total', async () => {
    const { email } = await register()
    const tok = await token(email)
    const profile = await me(tok)
    expect(profile.body.data.email).toBe(email.toLowerCase())
    const id = (
      await t.db.query<{ id: string }>('select id::text as id from users where email = $1', [email.toLowerCase()])
    )[0]!.id
    const today = vietnamDay(t.clock.now)
    for (const [back, count] of [
      [0, 3],
      [5, 7],
      [29, 1],
      [30, 9],
      [45, 2],
    ] as const)
      await t.db.query(`insert into usage_daily (user_id, day, count) values ($1, $2::date - $3::int, $4)`, [
        id,
        today,
        back,
        count,
      ])
    const res = await t.request('/api/auth/usage/days', { token: tok })
    expect(res.status).toBe(200)
    const day = (back: number) =>
      new Date(Date.parse(`${today}T00:00:00Z`) - back * 86_400_000).toISOString().slice(0, 10)
    expect(res.body.data).toEqual({
      days: [
        { day: day(0), count: 3 },
        { day: day(5), count: 7 },
        { day: day(29), count: 1 },
      ],
      total: 11,
    })
    expect((await t.request('/api/auth/usage/days')).status).toBe(401)
  })
})

describe('password reset', () => {
  async function codeFor(email: string) {
    const before = t.mails.length
    const res = await post('forgotPassword', { email })
    expect(res.status).toBe(200)
    await expect.poll(() => t.mails.length).toBe(before + 1)
    const mail = t.mails[t.mails.length - 1]!
    const code = /([A-Z2-9]{6}-\d{6})/.exec(mail.text)?.[1]
    expect(code).toBeDefined()
    return code!
  }

  it('answers forgotPassword the same for an unknown e-mail and mails one Vietnamese code to a known one', async () => {
    const { email, name } = await register('Phạm Quên')
    const before = t.mails.length
    const unknown = await post('forgotPassword', { email: uniqueEmail('khong-co') })
    const known = await post('forgotPassword', { email: email.toUpperCase() })
    expect(known.status).toBe(unknown.status)
    expect(known.body).toEqual(unknown.body)
    expect(known.body.data).toBeNull()
    // The unknown e-mail's work ran first (requests are served in order) and sent nothing.
    await expect.poll(() => t.mails.length).toBe(before + 1)
    const mail = t.mails[before]!
    expect(mail.to).toBe(email)
    expect(mail.subject).toMatch(/mật khẩu/)
    expect(mail.text).toContain(name)
    expect(mail.text).toContain('https://quyhoach.example.vn')
    expect(mail.text).toMatch(/[A-Z2-9]{6}-\d{6}/)
  })

  it('answers forgotPassword after the same statements for a known and an unknown e-mail, and mails the code after the answer', async () => {
    const statements: string[] = []
    const db: Database = {
      ...t.db,
      query: (sql, params, opts) => (statements.push(sql), t.db.query(sql, params, opts)),
      transaction: (fn) =>
        t.db.transaction((tx) =>
          fn({ query: (sql, params, opts) => (statements.push(sql), tx.query(sql, params, opts)), exec: tx.exec }),
        ),
    }
    const timed = await createTestApp({ TRUST_PROXY: 'true' }, db)
    const { email } = await register('Đỗ Quên')
    // What ran by the time each answer was ready: everything that differs comes after it.
    const until = async (address: string) => {
      statements.length = 0
      const res = await timed.app.request('/api/auth/forgotPassword', {
        method: 'POST',
        body: JSON.stringify({ email: address }),
        headers: { 'content-type': 'application/json', 'x-forwarded-for': randomIp() },
      })
      expect(res.status).toBe(200)
      return statements.map((sql) => sql.replace(/\s+/g, ' ').trim())
    }
    const known = await until(email)
    // The mail is the known e-mail's last step: once it is out, nothing of that request runs any more.
    await expect.poll(() => timed.mails.filter((m) => m.to === email).length).toBe(1)
    const unknown = await until(uniqueEmail('khong-co'))
    expect(known).toEqual(unknown)
    expect(known.some((sql) => /password_resets|from users/.test(sql))).toBe(false)
  })

  it('stores the reset code only as a hash', async () => {
    const { email } = await register()
    const code = await codeFor(email)
    const rows = await t.db.query<{ verifier_hash: string }>(
      'select r.verifier_hash from password_resets r join users u on u.id = r.user_id where u.email = $1',
      [email],
    )
    expect(rows).toHaveLength(1)
    expect(rows[0]!.verifier_hash).not.toContain(code.slice(7))
  })

  it('sets the new password with the code, and refuses the same code a second time', async () => {
    const { email } = await register()
    const code = await codeFor(email)
    const res = await post('resetPassword', { code: code.toLowerCase(), new_password: 'mat-khau-moi-1' })
    expect(res.status).toBe(200)
    expect(res.body.data).toBeNull()
    expect((await login(email)).status).toBe(401)
    expect((await login(email, 'mat-khau-moi-1')).status).toBe(200)
    const again = await post('resetPassword', { code, new_password: 'mat-khau-moi-2' })
    expect(again.status).toBe(400)
    expect(again.body.errors.code).toHaveLength(1)
    expect((await login(email, 'mat-khau-moi-2')).status).toBe(401)
  })

  it('revokes every token of the account when the password is reset', async () => {
    const { email } = await register()
    const tokens = [await token(email), await token(email)]
    const code = await codeFor(email)
    expect((await post('resetPassword', { code, new_password: 'mat-khau-moi-1' })).status).toBe(200)
    for (const tok of tokens) expect((await me(tok)).status).toBe(401)
  })

  it('kills a code after 5 wrong tries, so the right code no longer works', async () => {
    const { email } = await register()
    const code = await codeFor(email)
    const [selector, verifier] = code.split('-') as [string, string]
    const wrong = String((Number(verifier) + 1) % 1_000_000).padStart(6, '0')
    for (let i = 0; i < 5; i++) {
      const res = await post('resetPassword', { code: `${selector}-${wrong}`, new_password: 'mat-khau-doan-1' })
      expect(res.status).toBe(400)
    }
    const res = await post('resetPassword', { code, new_password: 'mat-khau-moi-1' })
    expect(res.status).toBe(400)
    expect((await login(email)).status).toBe(200)
  })

  it('still accepts the right code after 4 wrong tries', async () => {
    const { email } = await register()
    const code = await codeFor(email)
    const [selector, verifier] = code.split('-') as [string, string]
    const wrong = String((Number(verifier) + 1) % 1_000_000).padStart(6, '0')
    for (let i = 0; i < 4; i++)
      await post('resetPassword', { code: `${selector}-${wrong}`, new_password: 'mat-khau-doan-1' })
    expect((await post('resetPassword', { code, new_password: 'mat-khau-moi-1' })).status).toBe(200)
  })

  it('refuses a code older than 30 minutes', async () => {
    const { email } = await register()
    const code = await codeFor(email)
    const sentAt = t.clock.now
    try {
      t.clock.now = new Date(sentAt.getTime() + 30 * 60 * 1000 + 1000)
      expect((await post('resetPassword', { code, new_password: 'mat-khau-moi-1' })).status).toBe(400)
    } finally {
      t.clock.now = sentAt
    }
    expect((await login(email)).status).toBe(200)
  })

  it('keeps only the newest code of an account working', async () => {
    const { email } = await register()
    const older = await codeFor(email)
    const newer = await codeFor(email)
    expect((await post('resetPassword', { code: older, new_password: 'mat-khau-moi-1' })).status).toBe(400)
    expect((await post('resetPassword', { code: newer, new_password: 'mat-khau-moi-1' })).status).toBe(200)
  })

  it('refuses made-up and malformed codes with 400 naming the code field', async () => {
    for (const code of ['AAAAAA-000000', '123', 'x'.repeat(64)]) {
      const res = await post('resetPassword', { code, new_password: 'mat-khau-moi-1' })
      expect(res.status).toBe(400)
      expect(res.body.errors.code).toBeDefined()
    }
  })
})

describe('rate limits', () => {
  it('answers 429 with Retry-After after 10 logins for one e-mail in 15 minutes, and recovers after the window', async () => {
    const { email } = await register()
    const start = t.clock.now
    try {
      for (let i = 0; i < 10; i++) expect((await login(email, 'mat-khau-sai-1')).status).toBe(401)
      const limited = await login(email)
      expect(limited.status).toBe(429)
      expect(limited.body.meta.code).toBe('TooManyRequests')
      const retryAfter = Number(limited.headers.get('retry-after'))
      expect(retryAfter).toBeGreaterThan(0)
      expect(retryAfter).toBeLessThanOrEqual(15 * 60)
      t.clock.now = new Date(start.getTime() + retryAfter * 1000)
      expect((await login(email)).status).toBe(200)
    } finally {
      t.clock.now = start
    }
  })

  it('answers 429 after 30 logins from one IP, whatever the e-mails', async () => {
    const ip = randomIp()
    for (let i = 0; i < 30; i++) expect((await login(uniqueEmail('ip'), password, ip)).status).toBe(401)
    const { email } = await register()
    const limited = await login(email, password, ip)
    expect(limited.status).toBe(429)
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/)
    expect((await login(email, password, randomIp())).status).toBe(200)
    // 31 scrypt checks at OWASP strength, each ≈ 0.3–1.5 s on a busy machine.
  }, 180_000)

  it('answers 429 after 5 reset requests for one e-mail and recovers after the window', async () => {
    const { email } = await register()
    const start = t.clock.now
    try {
      const mailsTo = () => t.mails.filter((m) => m.to === email).length
      for (let i = 0; i < 5; i++) expect((await post('forgotPassword', { email })).status).toBe(200)
      await expect.poll(mailsTo).toBe(5)
      const limited = await post('forgotPassword', { email })
      expect(limited.status).toBe(429)
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
      t.clock.now = new Date(start.getTime() + 15 * 60 * 1000)
      expect((await post('forgotPassword', { email })).status).toBe(200)
      // The refused request sent nothing: the sixth mail is the one after the window.
      await expect.poll(mailsTo).toBe(6)
    } finally {
      t.clock.now = start
    }
  })

  it('answers 429 with Retry-After after 30 reset attempts from one address, whatever the codes', async () => {
    const ip = randomIp()
    for (let i = 0; i < 30; i++) {
      const res = await post(
        'resetPassword',
        { code: `ABCDEF-${String(i).padStart(6, '0')}`, new_password: password },
        { ip },
      )
      expect(res.status).toBe(400)
    }
    const limited = await post('resetPassword', { code: 'ABCDEF-999999', new_password: password }, { ip })
    expect(limited.status).toBe(429)
    expect(limited.body.meta.code).toBe('TooManyRequests')
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
    expect((await post('resetPassword', { code: 'ABCDEF-999999', new_password: password })).status).toBe(400)
  })

  it('keys on the socket address, not X-Forwarded-For, when the proxy is not trusted', async () => {
    const untrusted = await createTestApp()
    // A window of its own, far from the present, so the shared 'unknown' address starts at zero.
    untrusted.clock.now = new Date(Date.UTC(2090, 0, 1) + Math.floor(Math.random() * 1e6) * 15 * 60 * 1000)
    for (let i = 0; i < 30; i++) {
      const res = await untrusted.request('/api/auth/forgotPassword', {
        method: 'POST',
        json: { email: uniqueEmail('fwd') },
        headers: { 'x-forwarded-for': randomIp() },
      })
      expect(res.status).toBe(200)
    }
    const res = await untrusted.request('/api/auth/forgotPassword', {
      method: 'POST',
      json: { email: uniqueEmail('fwd') },
      headers: { 'x-forwarded-for': randomIp() },
    })
    expect(res.status).toBe(429)
  })
})
