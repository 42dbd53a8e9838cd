import { randomInt } from 'node:crypto'
import { outsideStatementScope } from '../db/statement-scope.ts'
import type { Deps } from '../deps.ts'
import { InvalidInputError } from '../domain-errors.ts'
import { findUserByEmail } from './accounts.ts'
import { passwordResetMail } from './mail-texts.ts'
import { hashPassword } from './password.ts'
import { forgetUserTokens, sha256 } from './tokens.ts'

export const RESET_CODE_TTL_MS = 30 * 60 * 1000
export const RESET_CODE_MAX_WRONG = 5

// No 0/O or 1/I, so a code read aloud or copied by hand survives.
const SELECTOR_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'
const SELECTOR_LEN = 6
const CODE_SHAPE = /^([A-Z2-9]{6})-?(\d{6})$/

/**
 * A code is `SELECTOR-VERIFIER`, e.g. `K7QPM2-482913`. The reset request carries only the code, so
 * the public selector finds the one row whose wrong tries are counted; only the verifier's hash
 * is stored.
 */
function newCode() {
  let selector = ''
  for (let i = 0; i < SELECTOR_LEN; i++) selector += SELECTOR_ALPHABET[randomInt(SELECTOR_ALPHABET.length)]
  const verifier = String(randomInt(1_000_000)).padStart(6, '0')
  return { code: `${selector}-${verifier}`, selector, verifierHash: verifierHash(selector, verifier) }
}

function verifierHash(selector: string, verifier: string): string {
  return sha256(`${selector}:${verifier}`)
}

function parseCode(input: string): { selector: string; verifier: string } | null {
  const match = CODE_SHAPE.exec(input.replace(/\s+/g, '').toUpperCase())
  return match ? { selector: match[1]!, verifier: match[2]! } : null
}

const invalidCode = 'Mã không đúng, đã được dùng hoặc đã hết hạn. Vui lòng yêu cầu mã mới nếu cần.'

/**
 * forgotPassword's work, started after its answer has gone out (the next turn of the event loop):
 * looking the e-mail up, writing the code and sending the mail then cost the answer nothing, so
 * neither the answer nor its timing tells whether the account exists. A failure is logged; the person
 * can ask again.
 */
export function requestPasswordResetLater(
  deps: Pick<Deps, 'db' | 'config' | 'logger' | 'mailer' | 'now'>,
  email: string,
): void {
  setImmediate(() =>
    outsideStatementScope(() =>
      requestPasswordReset(deps, email).catch((err: unknown) =>
        deps.logger.error('password reset request failed', { error: String(err) }),
      ),
    ),
  )
}

/** Sends a reset code when the e-mail has an account; nothing for an unknown one. */
export async function requestPasswordReset(
  deps: Pick<Deps, 'db' | 'config' | 'logger' | 'mailer' | 'now'>,
  email: string,
): Promise<void> {
  const user = await findUserByEmail(deps, email)
  if (!user) return
  const fresh = newCode()
  const now = deps.now()
  const expiresAt = new Date(now.getTime() + RESET_CODE_TTL_MS)
  const code = await deps.db.transaction(async (tx) => {
    // Only the newest code works, so an older mail left in an inbox is harmless.
    await tx.query('update password_resets set used_at = $2 where user_id = $1 and used_at is null', [user.id, now])
    for (let attempt = 0, candidate = fresh; ; attempt++, candidate = newCode()) {
      const rows = await tx.query(
        `insert into password_resets (user_id, selector, verifier_hash, created_at, expires_at)
         values ($1, $2, $3, $4, $5) on conflict (selector) do nothing returning id`,
        [user.id, candidate.selector, candidate.verifierHash, now, expiresAt],
      )
      if (rows.length > 0) return candidate.code
      if (attempt >= 5) throw new Error('could not find a free reset selector')
    }
  })
  const mail = passwordResetMail({ to: email, name: user.name, code, expiresAt, publicUrl: deps.config.publicUrl })
  deps.mailer.send(mail).catch((err: unknown) => deps.logger.error('reset mail failed', { error: String(err) }))
}

/**
 * Sets a new password with a reset code: single use, 30 minutes, and dead after 5 wrong tries.
 * On success every token of the account is revoked.
 */
export async function resetPassword(
  deps: Pick<Deps, 'db' | 'now'>,
  codeInput: string,
  newPassword: string,
): Promise<void> {
  const parsed = parseCode(codeInput)
  if (!parsed) throw new InvalidInputError(invalidCode, { fields: { code: [invalidCode] } })
  const now = deps.now()
  const hash = verifierHash(parsed.selector, parsed.verifier)
  const live = 'selector = $1 and used_at is null and expires_at > $2 and failed_attempts < ' + RESET_CODE_MAX_WRONG
  const matches = await deps.db.query(`select 1 from password_resets where ${live} and verifier_hash = $3`, [
    parsed.selector,
    now,
    hash,
  ])
  if (matches.length === 0) {
    await deps.db.query(`update password_resets set failed_attempts = failed_attempts + 1 where ${live}`, [
      parsed.selector,
      now,
    ])
    throw new InvalidInputError(invalidCode, { fields: { code: [invalidCode] } })
  }
  // Hashed before the transaction so the scrypt work never holds the database connection.
  const passwordHash = await hashPassword(newPassword)
  const userId = await deps.db.transaction(async (tx) => {
    // Claiming the code is the single-use check: of two parallel resets only one gets the row.
    const claimed = await tx.query<{ user_id: string }>(
      `update password_resets set used_at = $2 where ${live} and verifier_hash = $3 returning user_id::text as user_id`,
      [parsed.selector, now, hash],
    )
    const userId = claimed[0]?.user_id
    if (!userId) throw new InvalidInputError(invalidCode, { fields: { code: [invalidCode] } })
    await tx.query('update users set password_hash = $2 where id = $1', [userId, passwordHash])
    await tx.query('update auth_tokens set revoked_at = $2 where user_id = $1 and revoked_at is null', [userId, now])
    await tx.query('update password_resets set used_at = $2 where user_id = $1 and used_at is null', [userId, now])
    return userId
  })
  forgetUserTokens(deps.db, userId)
}
