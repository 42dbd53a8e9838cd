import { spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createLogger } from '../logger.ts'
import { createMailer } from '../mail/mailer.ts'
import { diskStorage } from '../uploads/storage.ts'

const modeOf = (path: string) => statSync(path).mode & 0o777
const temp = () => mkdtempSync(join(tmpdir(), 'qh-private-'))

describe('files the server writes are readable by its user only', () => {
  it('sets a umask under which every file and folder a process creates is private', () => {
    const dir = temp()
    const script = `
      import { mkdirSync, writeFileSync } from 'node:fs'
      import { keepFilesPrivate } from ${JSON.stringify(join(import.meta.dirname, 'private-files.ts'))}
      process.umask(0o022)
      keepFilesPrivate()
      mkdirSync(${JSON.stringify(join(dir, 'pg'))})
      writeFileSync(${JSON.stringify(join(dir, 'pg', 'PG_VERSION'))}, '17')`
    const res = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })
    expect(res.stderr).toBe('')
    expect(modeOf(join(dir, 'pg'))).toBe(0o700)
    expect(modeOf(join(dir, 'pg', 'PG_VERSION'))).toBe(0o600)
  })

  it('writes mails to the outbox as 0600 files in a 0700 folder, even under a permissive umask', async () => {
    const previous = process.umask(0o022)
    try {
      const outbox = join(temp(), 'outbox')
      const mailer = createMailer(
        { smtpUrl: undefined, mailFrom: 'Quy hoạch VN <no-reply@example.vn>', mailOutboxDir: outbox },
        createLogger('silent'),
      )
      await mailer.send({ to: 'a@example.vn', subject: 'Mã', text: 'K7QPM2-482913' })
      expect(modeOf(outbox)).toBe(0o700)
      expect(readdirSync(outbox).map((f) => modeOf(join(outbox, f)))).toEqual([0o600])
    } finally {
      process.umask(previous)
    }
  })

  it('stores photos as 0600 files in 0700 folders, even under a permissive umask', async () => {
    const previous = process.umask(0o022)
    try {
      const root = temp()
      await diskStorage(root).put('ab/abc.jpg', new Uint8Array([1, 2, 3]), 'image/jpeg')
      expect(modeOf(join(root, 'ab'))).toBe(0o700)
      expect(modeOf(join(root, 'ab', 'abc.jpg'))).toBe(0o600)
    } finally {
      process.umask(previous)
    }
  })
})
