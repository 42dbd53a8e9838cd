import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { call, removeTempDirs, startServer, tempDir, type ServerProc } from '../../../tests/faults/process.ts'
import { form, photo } from '../routes/uploads/test-images.ts'
import { testDb } from '../testing/test-app.ts'

// Two server processes, each with its own DATA_DIR, on one PostgreSQL: what a second machine behind
// the same load balancer is. Only where the suite runs on PostgreSQL.
const url = process.env.DATABASE_URL
const onPostgres = url ? describe : describe.skip

const filesIn = (dir: string) => (existsSync(dir) ? readdirSync(dir, { recursive: true }).length : 0)

onPostgres('photos on two server processes sharing one PostgreSQL', () => {
  let a: ServerProc
  let b: ServerProc
  const ip = `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.9`
  beforeAll(async () => {
    const env = { DATABASE_URL: url ?? '', DEMO_DATA: 'false', TRUST_PROXY: 'true' }
    ;[a, b] = await Promise.all([
      startServer({ dataDir: tempDir('qh-shared-a-'), env }),
      startServer({ dataDir: tempDir('qh-shared-b-'), env }),
    ])
  })
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()])
    removeTempDirs()
  })

  it('serves a photo uploaded through one process from the other, and deletes it once for both', async () => {
    const email = `chia-se.${Date.now().toString(36)}@example.vn`
    const password = 'mat-khau-chia-se-1'
    expect(
      (await call(`${a.url}/api/auth/register`, { method: 'POST', json: { name: 'Hai Máy', email, password }, ip }))
        .status,
    ).toBe(201)
    const token = (await call(`${b.url}/api/auth/login`, { method: 'POST', json: { email, password }, ip })).body.data
      .access_token as string

    const { body, contentType } = await form([{ bytes: await photo('jpeg', 64, 48) }])
    const up = await call(`${a.url}/api/uploads`, {
      method: 'POST',
      body,
      token,
      headers: { 'content-type': contentType },
    })
    expect(up.status).toBe(201)
    const { id, url: path } = up.body.data[0] as { id: string; url: string }

    const fromB = await fetch(`${b.url}${path}`, { headers: { authorization: `Bearer ${token}` } })
    expect(fromB.status).toBe(200)
    expect(fromB.headers.get('content-type')).toBe('image/jpeg')
    const served = new Uint8Array(await fromB.arrayBuffer())
    const fromA = new Uint8Array(
      await (await fetch(`${a.url}${path}`, { headers: { authorization: `Bearer ${token}` } })).arrayBuffer(),
    )
    expect(served).toEqual(fromA)
    expect((await fetch(`${b.url}${path}/thumb`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200)
    // Nothing of it on either machine's disk: the bytes are in the database.
    expect(filesIn(join(a.dataDir, 'uploads')) + filesIn(join(b.dataDir, 'uploads'))).toBe(0)
    const db = await testDb()
    const keys = await db.query<{ storage_key: string; thumb_key: string }>(
      'select storage_key, thumb_key from uploads where id = $1',
      [id],
    )
    const stored = [keys[0]?.storage_key, keys[0]?.thumb_key]
    expect((await db.query('select 1 from upload_objects where key = any($1::text[])', [stored])).length).toBe(2)

    const removed = await call(`${b.url}${path}`, { method: 'DELETE', token })
    expect([removed.status, removed.body.meta.code]).toEqual([200, 'Ok'])
    expect((await call(`${a.url}${path}`, { token })).status).toBe(404)
    expect((await call(`${a.url}${path}`, { method: 'DELETE', token })).status).toBe(404)
    expect((await db.query('select 1 from upload_objects where key = any($1::text[])', [stored])).length).toBe(0)
  })
})
