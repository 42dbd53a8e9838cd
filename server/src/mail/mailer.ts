import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { randomUUID } from 'node:crypto'
import nodemailer from 'nodemailer'
import type { Config } from '../config.ts'
import type { Logger } from '../logger.ts'
import { PRIVATE_DIR, PRIVATE_FILE } from '../security/private-files.ts'

export type Mail = { to: string; subject: string; text: string }
export type Mailer = { send(mail: Mail): Promise<void> }

/**
 * Real SMTP when SMTP_URL is set; otherwise every mail becomes one .eml file in MAIL_OUTBOX_DIR,
 * so a developer (and the end-to-end tests) can read reset codes without a mail server.
 */
export function createMailer(config: Pick<Config, 'smtpUrl' | 'mailFrom' | 'mailOutboxDir'>, logger: Logger): Mailer {
  if (config.smtpUrl) {
    const transport = nodemailer.createTransport(config.smtpUrl)
    return {
      async send(mail) {
        await transport.sendMail({ from: config.mailFrom, ...mail })
        logger.info('mail sent', { subject: mail.subject })
      },
    }
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' })
  return {
    async send(mail) {
      const info = await transport.sendMail({ from: config.mailFrom, ...mail })
      await mkdir(config.mailOutboxDir, { recursive: true, mode: PRIVATE_DIR })
      const file = join(
        config.mailOutboxDir,
        `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}.eml`,
      )
      // Reset codes are in these files: the server's user only.
      await writeFile(file, info.message as Buffer, { mode: PRIVATE_FILE })
      logger.info('mail written to outbox', { file, subject: mail.subject })
    },
  }
}
