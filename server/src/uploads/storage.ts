import { randomBytes } from 'node:crypto'
import { mkdir, open, readFile, rename, unlink, type FileHandle } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { PRIVATE_DIR, PRIVATE_FILE } from '../security/private-files.ts'

/**
 * Where image bytes live. The database keeps the metadata and the keys; anything that can put, get
 * and delete an object by key (local disk here, an S3-compatible bucket on several servers) fits.
 */
export interface UploadStorage {
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>
  /** The stored bytes, or null when nothing is stored under the key. */
  get(key: string): Promise<Uint8Array | null>
  /** Deleting a missing key is not an error, so cleanup can be repeated. */
  delete(key: string): Promise<void>
}

// Keys are made by the server, but checking them keeps a bug from ever reaching outside the root:
// path segments of safe characters and a single extension, so no `..`, no absolute paths.
const keyPattern = /^[A-Za-z0-9_-]+(?:\/[A-Za-z0-9_-]+)*\.[a-z0-9]+$/

export function isStorageKey(key: string): boolean {
  return key.length <= 200 && keyPattern.test(key)
}

export function assertStorageKey(key: string): void {
  if (!isStorageKey(key)) throw new Error(`invalid storage key: ${JSON.stringify(key)}`)
}

/** Writes all bytes to an open file; replaceable in tests to simulate a full disk. */
export type DiskWriter = (file: FileHandle, bytes: Uint8Array) => Promise<void>

const writeAll: DiskWriter = (file, bytes) => file.writeFile(bytes)

/**
 * Files under `root`. Each put writes a temporary file, flushes it and renames it over the key, so a
 * crash or a full disk leaves either the whole file or none; failed temporaries are removed.
 */
export function diskStorage(root: string, write: DiskWriter = writeAll): UploadStorage {
  const pathOf = (key: string) => {
    assertStorageKey(key)
    return join(root, key)
  }
  return {
    async put(key, bytes) {
      const path = pathOf(key)
      const dir = dirname(path)
      await mkdir(dir, { recursive: true, mode: PRIVATE_DIR })
      const temp = join(dir, `.tmp-${randomBytes(8).toString('hex')}`)
      try {
        const file = await open(temp, 'wx', PRIVATE_FILE)
        try {
          await write(file, bytes)
          await file.sync()
        } finally {
          await file.close()
        }
        await rename(temp, path)
      } catch (err) {
        await unlink(temp).catch(() => {})
        throw err
      }
      // The rename itself must reach the disk before the database row that points at it.
      const d = await open(dir, 'r')
      try {
        await d.sync()
      } finally {
        await d.close()
      }
    },
    async get(key) {
      try {
        return await readFile(pathOf(key))
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null
        throw err
      }
    },
    async delete(key) {
      try {
        await unlink(pathOf(key))
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err
      }
    },
  }
}

/** A write failed because the disk or the quota is full: worth a clear message, not a stack trace. */
export function isStorageFull(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code
  return code === 'ENOSPC' || code === 'EDQUOT'
}
