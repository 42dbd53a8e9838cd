import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto'

// scrypt is memory-hard (128·N·r bytes ≈ 32 MiB per hash at these settings), which is what makes
// offline guessing of leaked hashes expensive. maxmem must exceed that or Node refuses.
const PARAMS = { N: 2 ** 15, r: 8, p: 1 }
const KEY_LEN = 32
const SALT_LEN = 16
const MAX_MEM = 64 * 1024 * 1024

function derive(password: string, salt: Buffer, params: { N: number; r: number; p: number }, keyLen: number): Promise<Buffer> {
  const options: ScryptOptions = { ...params, maxmem: MAX_MEM }
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, keyLen, options, (err, key) => (err ? reject(err) : resolve(key)))
  })
}

/** A self-describing string `scrypt$N$r$p$salt$hash` (base64url), so parameters can be raised later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_LEN)
  const key = await derive(password, salt, PARAMS, KEY_LEN)
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64url'), key.toString('base64url')].join('$')
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$')
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number]
  // Bounds keep a corrupted row from asking for gigabytes of memory.
  if (!(N >= 2 && N <= 2 ** 20 && r >= 1 && r <= 32 && p >= 1 && p <= 16)) return false
  const salt = Buffer.from(parts[4] ?? '', 'base64url')
  const expected = Buffer.from(parts[5] ?? '', 'base64url')
  if (salt.length === 0 || expected.length === 0) return false
  const key = await derive(password, salt, { N, r, p }, expected.length)
  return timingSafeEqual(key, expected)
}

let dummy: Promise<string> | undefined

/**
 * Checks a password against a throwaway hash and answers false, so a login for an unknown e-mail
 * costs the same scrypt work as one for a known e-mail and timing does not reveal which exists.
 */
export async function burnPasswordCheck(password: string): Promise<false> {
  dummy ??= hashPassword(randomBytes(16).toString('hex'))
  await verifyPassword(password, await dummy)
  return false
}
