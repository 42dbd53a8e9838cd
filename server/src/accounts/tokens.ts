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

/**
 * Live tokens this process has checked recently, on the embedded database. A burst of requests (a map
 * screen, search as you type) then costs one token query, not one each: on PGlite's single connection
 * that query was a large share of every lookup. There the server is the only process, and logout and
 * password reset drop entries here before they answer, so nothing revoked is ever taken from it.
 *
 * On PostgreSQL several processes may serve one database, and a revocation answered by one must hold in
 * every other from the next request on: a notification can arrive after that request. So each request's
 * token is checked in the database there (a primary-key read), and nothing is remembered.
 */
const RECHECK_MS = 30_000
const MAX_CACHED = 10_000
type Checked = { userId: string; expiresAt: number; checkedAt: number }
const checked = new WeakMap<object, Map<string, Checked>>()

function cacheOf(db: object): Map<string, Checked> {
  let cache = checked.get(db)
  if (!cache) {
    cache = new Map()
    checked.set(db, cache)
  }
  return cache
}

/** The user a token belongs to, or null when it is malformed, unknown, revoked or expired. */
export async function userIdForToken(deps: Pick<Deps, 'db' | 'now'>, token: string): Promise<string | null> {
  if (!TOKEN_SHAPE.test(token)) return null
  const hash = sha256(token)
  const now = deps.now()
  const t = now.getTime()
  const remember = deps.db.kind === 'pglite'
  const cache = cacheOf(deps.db)
  const hit = remember ? cache.get(hash) : undefined
  if (hit && t < hit.expiresAt && t >= hit.checkedAt && t - hit.checkedAt < RECHECK_MS) return hit.userId
  const rows = await deps.db.query<{ user_id: string; expires_at: Date }>(
    'select user_id, expires_at from auth_tokens where token_hash = $1 and revoked_at is null and expires_at > $2',
    [hash, now],
  )
  const row = rows[0]
  if (!remember) return row?.user_id ?? null
  cache.delete(hash)
  if (!row) return null
  if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value as string)
  cache.set(hash, { userId: row.user_id, expiresAt: new Date(row.expires_at).getTime(), checkedAt: t })
  return row.user_id
}

export async function revokeToken(deps: Pick<Deps, 'db' | 'now'>, token: string): Promise<void> {
  const hash = sha256(token)
  cacheOf(deps.db).delete(hash)
  await deps.db.query('update auth_tokens set revoked_at = $2 where token_hash = $1 and revoked_at is null', [
    hash,
    deps.now(),
  ])
}

/** After all of a user's tokens are revoked (password reset): none of them is taken from the cache again. */
export function forgetUserTokens(db: object, userId: string): void {
  const cache = cacheOf(db)
  for (const [hash, entry] of cache) if (entry.userId === userId) cache.delete(hash)
}
