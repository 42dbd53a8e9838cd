import { randomUUID } from 'node:crypto'
import { mkdtempSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { createTestUser, type TestUser } from '../accounts/test-user.ts'
import { photo } from '../routes/uploads/test-images.ts'
import { createTestApp, type TestApp } from '../testing/test-app.ts'
import { processImage, type ProcessedImage } from './image.ts'
import { diskStorage } from './storage.ts'
import { ownsAllUploads, saveUploads } from './uploads.ts'

let t: TestApp
let owner: TestUser
let other: TestUser
let image: ProcessedImage
beforeAll(async () => {
  t = await createTestApp()
  owner = await createTestUser(t)
  other = await createTestUser(t)
  image = await processImage(await photo('jpeg', 40, 30))
})

const tempStorage = () => {
  const root = mkdtempSync(join(tmpdir(), 'qh-uploads-'))
  const files = () => readdirSync(root, { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).length
  return { storage: diskStorage(root), files }
}

describe('saveUploads', () => {
  it('stores the image and its thumbnail and records one row per image', async () => {
    const { storage, files } = tempStorage()
    const answer = await saveUploads(t.db, storage, { userId: owner.id, images: [image, image], now: new Date() })
    expect(answer).toHaveLength(2)
    expect(answer[0]).toMatchObject({
      width: 40,
      height: 30,
      bytes: image.image.bytes.length,
      url: `/api/uploads/${answer[0]?.id}`,
    })
    expect(files()).toBe(4)
    const rows = await t.db.query<{ n: number }>('select count(*)::int as n from uploads where id = any($1::text[])', [
      answer.map((a) => a.id),
    ])
    expect(rows[0]?.n).toBe(2)
  })

  it('returns the recorded answer and deletes its own objects when the Idempotency-Key was recorded meanwhile', async () => {
    const { storage, files } = tempStorage()
    const key = `k-${randomUUID()}`
    const first = await saveUploads(t.db, storage, {
      userId: owner.id,
      images: [image],
      idempotency: { key, fingerprint: 'same-files' },
      now: new Date(),
    })
    // The second call skips the route's early check, as a concurrent retry that lost the race does.
    const second = await saveUploads(t.db, storage, {
      userId: owner.id,
      images: [image],
      idempotency: { key, fingerprint: 'same-files' },
      now: new Date(),
    })
    expect(second).toEqual(first)
    expect(files()).toBe(2)
    const rows = await t.db.query<{ n: number }>(
      'select count(*)::int as n from uploads where user_id = $1 and idempotency_key = $2',
      [owner.id, key],
    )
    expect(rows[0]?.n).toBe(1)
  })

  it('deletes the stored objects again when recording them fails', async () => {
    const { storage, files } = tempStorage()
    // No such account: the foreign key refuses the row after both objects were written.
    await expect(
      saveUploads(t.db, storage, { userId: randomUUID(), images: [image], now: new Date() }),
    ).rejects.toThrow()
    expect(files()).toBe(0)
  })
})

describe('ownsAllUploads', () => {
  let mine: string[]
  let theirs: string
  beforeAll(async () => {
    const { storage } = tempStorage()
    mine = (await saveUploads(t.db, storage, { userId: owner.id, images: [image, image], now: new Date() })).map(
      (a) => a.id,
    )
    theirs = (await saveUploads(t.db, storage, { userId: other.id, images: [image], now: new Date() }))[0]?.id ?? ''
  })

  it('is true when every id is one of the account’s uploads, repeated ids included', async () => {
    expect(await ownsAllUploads(t.db, owner.id, [...mine, mine[0] ?? ''])).toBe(true)
  })

  it('is true for an empty list', async () => {
    expect(await ownsAllUploads(t.db, owner.id, [])).toBe(true)
  })

  it('is false when one id belongs to another account', async () => {
    expect(await ownsAllUploads(t.db, owner.id, [...mine, theirs])).toBe(false)
  })

  it('is false for unknown and malformed ids', async () => {
    expect(await ownsAllUploads(t.db, owner.id, [mine[0] ?? '', 'AAAAAAAAAAAAAAAAAAAAAA'])).toBe(false)
    expect(await ownsAllUploads(t.db, owner.id, ["' or 1=1 --"])).toBe(false)
  })
})
