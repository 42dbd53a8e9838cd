import { mkdtempSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { diskStorage, isStorageFull, isStorageKey } from './storage.ts'

const tempRoot = () => mkdtempSync(join(tmpdir(), 'qh-storage-'))
const filesUnder = (dir: string) =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => join(d.parentPath, d.name))

describe('diskStorage', () => {
  it('gives back exactly the bytes put under a key, and null once they are deleted', async () => {
    const storage = diskStorage(tempRoot())
    const bytes = new Uint8Array([1, 2, 3, 250])
    await storage.put('ab/abcdef.jpg', bytes, 'image/jpeg')
    expect(new Uint8Array((await storage.get('ab/abcdef.jpg')) ?? [])).toEqual(bytes)
    await storage.delete('ab/abcdef.jpg')
    expect(await storage.get('ab/abcdef.jpg')).toBeNull()
  })

  it('treats deleting a missing key as done', async () => {
    await expect(diskStorage(tempRoot()).delete('zz/missing.jpg')).resolves.toBeUndefined()
  })

  it('replaces an existing object whole', async () => {
    const storage = diskStorage(tempRoot())
    await storage.put('k.jpg', new Uint8Array(1000).fill(1), 'image/jpeg')
    await storage.put('k.jpg', new Uint8Array([9]), 'image/jpeg')
    expect([...((await storage.get('k.jpg')) ?? [])]).toEqual([9])
  })

  it('refuses keys that could leave its folder', async () => {
    const storage = diskStorage(tempRoot())
    for (const key of ['../x.jpg', '/etc/passwd.jpg', 'a/../../b.jpg', 'a//b.jpg', 'noext', 'a/.hidden.jpg']) {
      expect(isStorageKey(key), key).toBe(false)
      await expect(storage.put(key, new Uint8Array([1]), 'image/jpeg')).rejects.toThrow(/invalid storage key/)
      await expect(storage.get(key)).rejects.toThrow(/invalid storage key/)
    }
  })

  it('leaves neither the object nor a temporary file when the disk fills up halfway through a write', async () => {
    const root = tempRoot()
    const storage = diskStorage(root, async (file, bytes) => {
      await file.write(bytes.subarray(0, bytes.length / 2))
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' })
    })
    const failure = await storage.put('ab/anh.jpg', new Uint8Array(4096).fill(5), 'image/jpeg').catch((e: unknown) => e)
    expect(isStorageFull(failure)).toBe(true)
    expect(filesUnder(root)).toEqual([])
    expect(await storage.get('ab/anh.jpg')).toBeNull()
  })

  it('keeps the previous object intact when replacing it fails', async () => {
    const root = tempRoot()
    await diskStorage(root).put('k.jpg', new Uint8Array([7, 7, 7]), 'image/jpeg')
    const failing = diskStorage(root, async (file) => {
      await file.write(new Uint8Array([0]))
      throw Object.assign(new Error('EDQUOT'), { code: 'EDQUOT' })
    })
    await expect(failing.put('k.jpg', new Uint8Array([1, 2]), 'image/jpeg')).rejects.toThrow('EDQUOT')
    expect([...((await failing.get('k.jpg')) ?? [])]).toEqual([7, 7, 7])
    expect(filesUnder(root)).toHaveLength(1)
  })
})
