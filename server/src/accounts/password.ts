import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto'

// OWASP's minimum for scrypt: N=2^17, r=8, p=1. Memory-hard (128·N·r bytes = 128 MiB per hash), which
// is what makes offline guessing of leaked hashes expensive. crypto.scrypt runs on libuv's thread pool,
// so a hash never blocks the event loop; callers hash outside any transaction so it never holds a
// database connection either.
export const PASSWORD_PARAMS = { N: 2 ** 17, r: 8, p: 1 }
const KEY_LEN = 32
const SALT_LEN = 16
// The largest accepted stored parameters (N ≤ 2^20, r ≤ 32) would need more; those are refused before
// hashing. Node refuses any hash whose 128·N·r exceeds maxmem, so leave room above the current cost.
const MAX_MEM = 2 * 128 * PASSWORD_PARAMS.N * PASSWORD_PARAMS.r

type Params = { N: number; r: number; p: number }

// A test run hashes hundreds of passwords (every register and login), each 0.3–1.5 s of a busy core at OWASP
// strength: most of the auth suites' time. Inside vitest only (it sets VITEST; a deployment never does),
// QH_TEST_PASSWORD_HASH=fast asks for a cheap hash; the tests that check the cost itself unset it.
const FAST_TEST_PARAMS = { N: 2 ** 10, r: 8, p: 1 }

function currentParams(): Params {
  return process.env.VITEST && process.env.QH_TEST_PASSWORD_HASH === 'fast' ? FAST_TEST_PARAMS : PASSWORD_PARAMS
}

function derive(password: string, salt: Buffer, params: Params, keyLen: number): Promise<Buffer> {
  const options: ScryptOptions = { ...params, maxmem: MAX_MEM }
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, keyLen, options, (err, key) => (err ? reject(err) : resolve(key)))
  })
}

/** A self-describing string `scrypt$N$r$p$salt$hash` (base64url), so parameters can be raised later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_LEN)
  const params = currentParams()
  const key = await derive(password, salt, params, KEY_LEN)
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64url'), key.toString('base64url')].join('$')
}

function parseStored(stored: string): { params: Params; salt: Buffer; expected: Buffer } | null {
  const parts = stored.split('$')
  if (parts.length !== 6 || parts[0] !== 'scrypt') return null
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number]
  // Bounds keep a corrupted row from asking for gigabytes of memory.
  if (!(N >= 2 && r >= 1 && p >= 1 && p <= 16 && 128 * N * r <= MAX_MEM)) return null
  const salt = Buffer.from(parts[4] ?? '', 'base64url')
  const expected = Buffer.from(parts[5] ?? '', 'base64url')
  if (salt.length === 0 || expected.length === 0) return null
  return { params: { N, r, p }, salt, expected }
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseStored(stored)
  if (!parsed) return false
  const key = await derive(password, parsed.salt, parsed.params, parsed.expected.length)
  return timingSafeEqual(key, parsed.expected)
}

/** True when a stored hash was made with weaker parameters than today's, so a login should replace it. */
export function needsRehash(stored: string): boolean {
  const parsed = parseStored(stored)
  if (!parsed) return false
  const { N, r, p } = parsed.params
  const wanted = currentParams()
  return N < wanted.N || r < wanted.r || p < wanted.p || parsed.expected.length < KEY_LEN
}

// One throwaway hash per parameter set, so the check costs what a real one does at the current cost.
const dummies = new Map<number, Promise<string>>()

/**
 * Checks a password against a throwaway hash and answers false, so a login for an unknown e-mail
 * costs the same scrypt work as one for a known e-mail and timing does not reveal which exists.
 */
export async function burnPasswordCheck(password: string): Promise<false> {
  const { N } = currentParams()
  let dummy = dummies.get(N)
  if (!dummy) dummies.set(N, (dummy = hashPassword(randomBytes(16).toString('hex'))))
  await verifyPassword(password, await dummy)
  return false
}
