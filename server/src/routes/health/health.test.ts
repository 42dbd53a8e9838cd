import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../testing/test-app.ts'

describe('GET /api/health', () => {
  it('reports the database as ok in the envelope', async () => {
    const t = await createTestApp()
    const res = await t.request('/api/health')
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ meta: { code: 'Ok', status: 'OK' }, data: { status: 'ok', db: 'ok' } })
  })
})
