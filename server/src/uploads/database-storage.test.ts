import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../db/index.ts'
import { testDb } from '../testing/test-app.ts'
import { databaseStorage } from './database-storage.ts'

let db: Database
beforeAll(async () => {
  db = await testDb()
})

const key = () => `${randomUUID().slice(0, 2)}/${randomUUID()}.jpg`

describe('databaseStorage', () => {
  it('gives back exactly the bytes put under a key, every byte value included, and null once deleted', async () => {
    const storage = databaseStorage(db)
    const k = key()
    const bytes = new Uint8Array(Array.from({ length: 512 }, (_, i) => i % 256))
    await storage.put(k, bytes, 'image/jpeg')
    expect(new Uint8Array((await storage.get(k)) ?? [])).toEqual(bytes)
    await storage.delete(k)
    expect(await storage.get(k)).toBeNull()
    await expect(storage.delete(k)).resolves.toBeUndefined()
  })

  it('replaces an existing object whole', async () => {
    const storage = databaseStorage(db)
    const k = key()
    await storage.put(k, new Uint8Array(1000).fill(1), 'image/jpeg')
    await storage.put(k, new Uint8Array([9]), 'image/webp')
    expect([...((await storage.get(k)) ?? [])]).toEqual([9])
    const rows = await db.query<{ content_type: string }>('select content_type from upload_objects where key = $1', [k])
    expect(rows.map((r) => r.content_type)).toEqual(['image/webp'])
  })

  it('refuses keys that are not storage keys', async () => {
    await expect(databaseStorage(db).put('../x.jpg', new Uint8Array([1]), 'image/jpeg')).rejects.toThrow(
      /invalid storage key/,
    )
  })
})
