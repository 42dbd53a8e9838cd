/** What the rest of the server sees of a database: the same SQL runs on PGlite and on PostgreSQL. */
/**
 * `prepare`: a name for the statement, so PostgreSQL parses it once per connection (hot paths only; PGlite
 * ignores it). `generic` (with `prepare`): PostgreSQL plans it once per connection and runs that plan for every
 * call, instead of re-planning it with each call's values whenever it guesses that the plan for no values in
 * particular costs more (as it does for a point lookup on a large table: performance.md, round 6).
 */
export type QueryOptions = { prepare?: string; generic?: boolean }

export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[], opts?: QueryOptions): Promise<T[]>
  /** Several statements without parameters (migrations, bulk loads). */
  exec(sql: string): Promise<void>
}

export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres'
  /** Runs `fn` in one transaction on one connection; rolls back if it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>
  ping(): Promise<void>
  /**
   * Calls `onMessage` with every payload any connection sends with `pg_notify(channel, …)` (delivered on
   * commit). `onLive(false)` says messages may be missed from now on (the listening connection was
   * lost; it reconnects by itself), `onLive(true)` that it listens again. Resolves once it listens;
   * close() ends it. The embedded database is one connection in one process: there nothing is sent
   * that the process did not do itself, and neither callback is called.
   */
  listen(channel: string, onMessage: (payload: string) => void, onLive: (live: boolean) => void): Promise<void>
  close(): Promise<void>
}

/** The database could not be reached; answered as 503 ServiceUnavailable. */
export class DatabaseUnavailableError extends Error {
  override name = 'DatabaseUnavailableError'
}

/** A statement not started, or cancelled, because the client of its request went away. */
export class StatementCancelledError extends Error {
  override name = 'StatementCancelledError'
}

/** A statement past its time budget: refused before it started (the embedded database) or cancelled. */
export class StatementTimeoutError extends Error {
  override name = 'StatementTimeoutError'
}

/** Past its budget: ours, or PostgreSQL's `canceling statement due to statement timeout` (57014). */
export function isStatementTimeout(err: unknown): boolean {
  return err instanceof StatementTimeoutError || (err as { code?: unknown } | null)?.code === '57014'
}

const unavailableCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  '57P01',
  '57P02',
  '57P03',
  '53300',
])

export function isUnavailable(err: unknown): boolean {
  if (err instanceof DatabaseUnavailableError) return true
  if (typeof err !== 'object' || err === null) return false
  const code = (err as { code?: unknown }).code
  if (typeof code === 'string' && (unavailableCodes.has(code) || code.startsWith('08'))) return true
  const msg = (err as { message?: unknown }).message
  return (
    typeof msg === 'string' &&
    /Connection terminated|connection timeout|Client has encountered a connection error|PGlite is closed/i.test(msg)
  )
}
