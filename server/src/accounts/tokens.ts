import { createHash, randomBytes } from 'node:crypto'
import type { Deps } from '../deps.ts'

const DAY_MS = 24 * 60 * 60 * 1000
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/

/** sha256 hex; tokens and reset verifiers are stored and looked up only in this form. */
export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex')
}

export type IssuedToken = { token: string; expiresAt: Date }

/** 32 random bytes, base64url; valid for TOKEN_TTL_DAYS from deps.now(). */
export async function issueToken(deps: Pick<Deps, 'db' | 'config' | 'now'>, userId: string): Promise<IssuedToken> {
  const token = randomBytes(32).toString('base64url')
  const now = deps.now()
  const expiresAt = new Date(now.getTime() + deps.config.tokenTtlDays * DAY_MS)
  await deps.db.query('insert into auth_tokens (token_hash, user_id, created_at, expires_at) values ($1, $2, $3, $4)', [
    sha256(token),
    userId,
    now,
    expiresAt,
  ])
  return { token, expiresAt }
}

/** The user a token belongs to, or null when it is malformed, unknown, revoked or expired. */
export async function userIdForToken(deps: Pick<Deps, 'db' | 'now'>, token: string): Promise<string | null> {
  if (!TOKEN_SHAPE.test(token)) return null
  const rows = await deps.db.query<{ user_id: string }>(
    'select user_id from auth_tokens where token_hash = $1 and revoked_at is null and expires_at > $2',
    [sha256(token), deps.now()],
  )
  return rows[0]?.user_id ?? null
}

export async function revokeToken(deps: Pick<Deps, 'db' | 'now'>, token: string): Promise<void> {
  await deps.db.query('update auth_tokens set revoked_at = $2 where token_hash = $1 and revoked_at is null', [sha256(token), deps.now()])
}
