import { mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createLogger } from '../logger.ts'
import { createMailer } from './mailer.ts'

describe('mailer without SMTP', () => {
  it('writes each mail as one .eml file in the outbox and logs where it went', async () => {
    const outbox = join(mkdtempSync(join(tmpdir(), 'qh-mail-')), 'outbox')
    const logs: string[] = []
    const mailer = createMailer(
      { smtpUrl: undefined, mailFrom: 'Quy hoạch VN <no-reply@example.vn>', mailOutboxDir: outbox },
      createLogger('info', (l) => logs.push(l)),
    )
    await mailer.send({
      to: 'nguoi.nhan@example.vn',
      subject: 'Mã đặt lại mật khẩu',
      text: 'Mã của bạn: K7QPM2-482913',
    })

    const files = readdirSync(outbox)
    expect(files).toHaveLength(1)
    expect(files[0]).toMatch(/\.eml$/)
    const eml = readFileSync(join(outbox, files[0]!), 'utf8')
    expect(eml).toMatch(/^To: nguoi\.nhan@example\.vn$/m)
    expect(eml).toMatch(/^From: .*<no-reply@example\.vn>$/m)
    expect(eml).toMatch(/^Subject: =\?UTF-8\?/m)
    expect(eml).toMatch(/^Content-Type: text\/plain; charset=utf-8$/m)
    expect(eml).toContain('K7QPM2-482913')
    expect(logs.some((l) => l.includes('mail written to outbox') && l.includes(files[0]!))).toBe(true)
  })
})
