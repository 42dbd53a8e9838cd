import type { Deps } from '../deps.ts'
import { ConflictError, InvalidInputError, NotSignedInError } from '../domain-errors.ts'
import { burnPasswordCheck, hashPassword, needsRehash, verifyPassword } from './password.ts'
import { forgetUserTokens, issueToken, type IssuedToken } from './tokens.ts'

type AccountDeps = Pick<Deps, 'db' | 'config' | 'now'>

export type Profile = { id: string; name: string; email: string; createdAt: Date }

const emailTaken = 'E-mail này đã được đăng ký.'

function isUniqueViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === '23505'
}

/** Looks an account up by an e-mail already trimmed and lower-cased by the contract schema. */
export async function findUserByEmail(deps: Pick<Deps, 'db'>, email: string) {
  const rows = await deps.db.query<{ id: string; name: string; password_hash: string }>(
    'select id, name, password_hash from users where lower(btrim(email)) = lower(btrim($1))',
    [email],
  )
  return rows[0] ?? null
}

/** Creates an account; 409 Conflict when the e-mail is taken, also when two registrations race. */
export async function registerUser(
  deps: AccountDeps,
  input: { name: string; email: string; password: string },
): Promise<Profile> {
  // Saves the scrypt work for the common case; the unique index still decides real races.
  if (await findUserByEmail(deps, input.email)) throw new ConflictError(emailTaken, { fields: { email: [emailTaken] } })
  const hash = await hashPassword(input.password)
  try {
    const rows = await deps.db.query<{ id: string; created_at: Date }>(
      'insert into users (name, email, password_hash, created_at) values ($1, $2, $3, $4) returning id::text as id, created_at',
      [input.name, input.email, hash, deps.now()],
    )
    const row = rows[0]!
    return { id: row.id, name: input.name, email: input.email, createdAt: row.created_at }
  } catch (err) {
    if (isUniqueViolation(err)) throw new ConflictError(emailTaken, { fields: { email: [emailTaken] } })
    throw err
  }
}

/** Checks the password and issues a token; the same 401 for an unknown e-mail and a wrong password. */
export async function logIn(
  deps: AccountDeps,
  email: string,
  password: string,
): Promise<IssuedToken & { name: string; userId: string }> {
  const user = await findUserByEmail(deps, email)
  const valid = user ? await verifyPassword(password, user.password_hash) : await burnPasswordCheck(password)
  if (!user || !valid) throw new NotSignedInError('E-mail hoặc mật khẩu không đúng.')
  if (needsRehash(user.password_hash)) await upgradeHash(deps, user.id, user.password_hash, password)
  const issued = await issueToken(deps, user.id)
  return { ...issued, name: user.name, userId: user.id }
}

/**
 * Replaces a hash made with older, weaker parameters, now that the password is known. Hashed before
 * the update (no connection held meanwhile); the update only applies if the row still holds the old
 * hash, so a password reset that landed in between is never overwritten.
 */
async function upgradeHash(deps: AccountDeps, userId: string, oldHash: string, password: string): Promise<void> {
  const hash = await hashPassword(password)
  await deps.db.query('update users set password_hash = $3 where id = $1 and password_hash = $2', [
    userId,
    oldHash,
    hash,
  ])
}

export async function getProfile(deps: Pick<Deps, 'db'>, userId: string): Promise<Profile> {
  const rows = await deps.db.query<{ id: string; name: string; email: string; created_at: Date }>(
    'select id::text as id, name, email, created_at from users where id = $1',
    [userId],
  )
  const row = rows[0]
  // A token can outlive nothing: tokens cascade with their account, so this is a race with deletion.
  if (!row) throw new NotSignedInError()
  return { id: row.id, name: row.name, email: row.email, createdAt: row.created_at }
}

const wrongCurrent = 'Mật khẩu hiện tại không đúng.'

/**
 * Changes the password after checking the current one. Every other token of the account stops
 * working (a phone left logged in somewhere is logged out); the one that asked keeps working.
 */
export async function changePassword(
  deps: AccountDeps,
  userId: string,
  keepTokenHash: string,
  current: string,
  next: string,
): Promise<void> {
  const rows = await deps.db.query<{ password_hash: string }>('select password_hash from users where id = $1', [userId])
  const stored = rows[0]?.password_hash
  if (!stored || !(await verifyPassword(current, stored)))
    throw new InvalidInputError(wrongCurrent, { fields: { current_password: [wrongCurrent] } })
  // Hashed before the transaction so the scrypt work never holds the database connection.
  const hash = await hashPassword(next)
  const now = deps.now()
  await deps.db.transaction(async (tx) => {
    await tx.query('update users set password_hash = $2 where id = $1', [userId, hash])
    await tx.query(
      'update auth_tokens set revoked_at = $3 where user_id = $1 and token_hash <> $2 and revoked_at is null',
      [userId, keepTokenHash, now],
    )
  })
  forgetUserTokens(deps.db, userId)
}
