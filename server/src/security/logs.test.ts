import { beforeAll, describe, expect, it } from 'vitest'
import { demoLoaded } from '../testing/demo.ts'
import { createTestApp, uniqueEmail, type TestApp } from '../testing/test-app.ts'

let t: TestApp
beforeAll(async () => {
  await demoLoaded()
  t = await createTestApp({ TRUST_PROXY: 'true' })
})

const randomIp = () => `10.${[0, 0, 0].map(() => Math.floor(Math.random() * 256)).join('.')}`

type Line = { msg: string; requestId?: string; path?: string; status?: number }
const lines = (logs: string[]) => logs.map((l) => JSON.parse(l) as Line)

describe('what the logs hold', () => {
  it('never holds a token, a password or a reset code, through every endpoint that sees them', async () => {
    const email = uniqueEmail('nhat-ky')
    const password = 'mat-khau-bi-mat-123'
    const newPassword = 'mat-khau-moi-bi-mat-456'
    const ip = randomIp()
    const post = (path: string, json: unknown, token?: string) =>
      t.request(path, { method: 'POST', json, token, headers: { 'x-forwarded-for': ip } })

    expect((await post('/api/auth/register', { name: 'Nhật Ký', email, password })).status).toBe(201)
    expect((await post('/api/auth/login', { email, password: 'sai-mat-khau-bi-mat' })).status).toBe(401)
    const token = (await post('/api/auth/login', { email, password })).body.data.access_token as string
    const auth = { token, headers: { 'x-forwarded-for': ip } }
    for (const path of [
      '/api/auth/me',
      '/api/auth/usage',
      '/api/planning?lat=10.7626&lng=106.6602',
      '/api/planning?lat=abc&lng=106',
      '/api/search?q=nguyen%20hue',
      '/api/parcels?province=x&ward=y&sheet_no=1&parcel_no=1',
      '/api/uploads/AAAAAAAAAAAAAAAAAAAAAA',
      '/api/khong-co',
    ]) {
      expect((await t.request(path, auth)).status).toBeLessThan(500)
    }
    expect(
      (
        await t.request('/api/valuation', {
          ...auth,
          method: 'POST',
          json: { lat: 10.7626, lng: 106.6602, image_ids: ['khong-phai-cua-ban'] },
        })
      ).status,
    ).toBeLessThan(500)
    // A token-shaped guess and a revoked token are refused, and they stay out of the logs too.
    const guess = 'G'.repeat(43)
    expect((await t.request('/api/auth/me', { token: guess })).status).toBe(401)
    expect((await post('/api/auth/logout', null, token)).status).toBe(200)
    expect((await t.request('/api/auth/me', { token })).status).toBe(401)

    const mails = t.mails.length
    expect((await post('/api/auth/forgotPassword', { email })).status).toBe(200)
    await expect.poll(() => t.mails.length).toBe(mails + 1)
    const code = /([A-Z2-9]{6}-\d{6})/.exec(t.mails.at(-1)!.text)![1]!
    expect((await post('/api/auth/resetPassword', { code, new_password: newPassword })).status).toBe(200)

    const all = t.logs.join('\n')
    expect(all).toContain('"path":"/api/auth/me"')
    for (const secret of [token, guess, password, newPassword, 'sai-mat-khau-bi-mat', code, code.split('-')[1]!])
      expect(all).not.toContain(secret)
    // Query strings carry a surveyor's positions and searches; they stay out as well.
    expect(all).not.toContain('nguyen')
    expect(all).not.toContain('10.7626')
  })

  it('gives every request one log line with the request id its answer carries', async () => {
    const before = t.logs.length
    const a = await t.request('/api/health')
    const b = await t.request('/api/khong-co')
    const ids = [a.headers.get('x-request-id'), b.headers.get('x-request-id')]
    expect(ids[0]).toBeTruthy()
    expect(ids[0]).not.toBe(ids[1])
    const requests = lines(t.logs.slice(before)).filter((l) => l.msg === 'request')
    expect(requests.map((l) => [l.requestId, l.path, l.status])).toEqual([
      [ids[0], '/api/health', 200],
      [ids[1], '/api/khong-co', 404],
    ])
  })

  it('keeps a proxy’s request id of a safe shape and replaces one that could forge log lines', async () => {
    const kept = await t.request('/api/health', { headers: { 'x-request-id': 'lb-7f3a-0001' } })
    expect(kept.headers.get('x-request-id')).toBe('lb-7f3a-0001')
    const forged = '"}\n{"level":"error","msg":"forged'
    const before = t.logs.length
    const replaced = await t.request('/api/health', { headers: { 'x-request-id': encodeURIComponent(forged) } })
    const id = replaced.headers.get('x-request-id')
    expect(id).toMatch(/^[\w-]+$/)
    expect(lines(t.logs.slice(before)).find((l) => l.msg === 'request')?.requestId).toBe(id)
    expect(t.logs.slice(before).join('\n')).not.toContain('forged')
  })
})
