import { mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AddressInfo } from 'node:net'
import { simpleParser } from 'mailparser'
import { SMTPServer } from 'smtp-server'
import { afterEach, describe, expect, it } from 'vitest'
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

describe('mailer with SMTP_URL', () => {
  let server: SMTPServer | undefined
  afterEach(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())))

  /** A real SMTP server on loopback (smtp-server) that accepts `user`/`pass` and keeps what it receives. */
  async function smtpServer(accept: boolean) {
    const received: { from: string; to: string[]; raw: Buffer }[] = []
    server = new SMTPServer({
      authOptional: false,
      allowInsecureAuth: true,
      disabledCommands: ['STARTTLS'],
      onAuth(auth, _session, cb) {
        if (auth.username === 'hop-thu' && auth.password === 'mat khau') cb(null, { user: auth.username })
        else cb(new Error('Invalid username or password'))
      },
      onData(stream, session, cb) {
        const chunks: Buffer[] = []
        stream.on('data', (c: Buffer) => chunks.push(c))
        stream.on('end', () => {
          if (!accept) return cb(Object.assign(new Error('Mailbox full'), { responseCode: 552 }))
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks),
          })
          cb()
        })
      },
    })
    await new Promise<void>((ready) => server!.listen(0, '127.0.0.1', ready))
    const { port } = server.server.address() as AddressInfo
    return { url: `smtp://hop-thu:mat%20khau@127.0.0.1:${port}`, received }
  }

  const mailerFor = (smtpUrl: string, logs: string[] = []) =>
    createMailer(
      { smtpUrl, mailFrom: 'Quy hoạch VN <no-reply@example.vn>', mailOutboxDir: '/nonexistent' },
      createLogger('info', (l) => logs.push(l)),
    )

  it('delivers the mail to the SMTP server, logged in, with the Vietnamese subject and text intact', async () => {
    const smtp = await smtpServer(true)
    const logs: string[] = []
    await mailerFor(smtp.url, logs).send({
      to: 'nguoi.nhan@example.vn',
      subject: 'Mã đặt lại mật khẩu',
      text: 'Mã của bạn: K7QPM2-482913. Mã hết hạn sau 15 phút.',
    })
    expect(smtp.received).toHaveLength(1)
    const [got] = smtp.received
    expect(got!.from).toBe('no-reply@example.vn')
    expect(got!.to).toEqual(['nguoi.nhan@example.vn'])
    const mail = await simpleParser(got!.raw)
    expect(mail.subject).toBe('Mã đặt lại mật khẩu')
    expect(mail.from?.value).toEqual([{ address: 'no-reply@example.vn', name: 'Quy hoạch VN' }])
    expect(mail.text?.trim()).toBe('Mã của bạn: K7QPM2-482913. Mã hết hạn sau 15 phút.')
    expect(logs.some((l) => l.includes('mail sent'))).toBe(true)
  })

  it("fails the send when the server refuses the message, so the caller's error handling sees it", async () => {
    const smtp = await smtpServer(false)
    await expect(
      mailerFor(smtp.url).send({ to: 'nguoi.nhan@example.vn', subject: 'Thử', text: 'Nội dung' }),
    ).rejects.toThrow(/552|Mailbox full/)
  })

  it('fails the send when the SMTP login is refused', async () => {
    const smtp = await smtpServer(true)
    await expect(
      mailerFor(smtp.url.replace('mat%20khau', 'sai')).send({ to: 'a@example.vn', subject: 'Thử', text: 'x' }),
    ).rejects.toThrow(/Invalid username or password|535/)
    expect(smtp.received).toEqual([])
  })
})
