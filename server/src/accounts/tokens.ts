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
 * Live tokens this process has checked recently, per database. A burst of requests (a map screen, search
 * as you type) then costs one token query, not one each: on a single database connection that query
 * was a large share of every lookup. Logout and password reset drop entries here at once and announce
 * the revocation on REVOKED_CHANNEL; every server process watching it (watchRevocations, started with
 * the server) drops them too, so a token revoked through one process is refused by all of them at once.
 * A process whose watch is down checks every token in the database until it is back; one that never
 * watched (tests, tools) rechecks after RECHECK_MS.
 */
const RECHECK_MS = 30_000
const MAX_CACHED = 10_000
const REVOKED_CHANNEL = 'qh_tokens_revoked'
type Checked = { userId: string; expiresAt: number; checkedAt: number }
type TokenCache = { entries: Map<string, Checked>; watch: 'none' | 'live' | 'down' }
const checked = new WeakMap<object, TokenCache>()

function stateOf(db: object): TokenCache {
  let state = checked.get(db)
  if (!state) {
    state = { entries: new Map(), watch: 'none' }
    checked.set(db, state)
  }
  return state
}

function cacheOf(db: object): Map<string, Checked> {
  return stateOf(db).entries
}

function forgetHash(db: object, hash: string): void {
  cacheOf(db).delete(hash)
}

/** Drops, in this process, the tokens other processes revoke; see the cache above. */
export async function watchRevocations(deps: Pick<Deps, 'db' | 'logger'>): Promise<void> {
  const state = stateOf(deps.db)
  await deps.db.listen(
    REVOKED_CHANNEL,
    (payload) => {
      const [kind, id] = payload.split(':')
      if (kind === 'token' && id) forgetHash(deps.db, id)
      else if (kind === 'user' && id) forgetUserTokens(deps.db, id)
    },
    (live) => {
      state.entries.clear()
      state.watch = live ? 'live' : 'down'
      if (live) deps.logger.info('token revocation watch back')
      else deps.logger.warn('token revocation watch lost; checking every token in the database until it is back')
    },
  )
  state.watch = 'live'
}

/** SQL that announces, on commit, that every token of user $1 was revoked. */
export const announceUserRevoked = `select pg_notify('${REVOKED_CHANNEL}', 'user:' || $1::text)`

/** The user a token belongs to, or null when it is malformed, unknown, revoked or expired. */
export async function userIdForToken(deps: Pick<Deps, 'db' | 'now'>, token: string): Promise<string | null> {
  if (!TOKEN_SHAPE.test(token)) return null
  const hash = sha256(token)
  const now = deps.now()
  const t = now.getTime()
  const state = stateOf(deps.db)
  const cache = state.entries
  const hit = state.watch === 'down' ? undefined : cache.get(hash)
  if (hit && t < hit.expiresAt && t >= hit.checkedAt && t - hit.checkedAt < RECHECK_MS) return hit.userId
  const rows = await deps.db.query<{ user_id: string; expires_at: Date }>(
    'select user_id, expires_at from auth_tokens where token_hash = $1 and revoked_at is null and expires_at > $2',
    [hash, now],
  )
  const row = rows[0]
  cache.delete(hash)
  if (!row) return null
  if (state.watch === 'down') return row.user_id
  if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value as string)
  cache.set(hash, { userId: row.user_id, expiresAt: new Date(row.expires_at).getTime(), checkedAt: t })
  return row.user_id
}

export async function revokeToken(deps: Pick<Deps, 'db' | 'now'>, token: string): Promise<void> {
  const hash = sha256(token)
  forgetHash(deps.db, hash)
  await deps.db.query(
    `update auth_tokens set revoked_at = $2 where token_hash = $1 and revoked_at is null returning pg_notify('${REVOKED_CHANNEL}', 'token:' || $1)`,
    [hash, deps.now()],
  )
}

/** After all of a user's tokens are revoked (password reset): none of them is taken from the cache again. */
export function forgetUserTokens(db: object, userId: string): void {
  const cache = cacheOf(db)
  for (const [hash, entry] of cache) if (entry.userId === userId) cache.delete(hash)
}
