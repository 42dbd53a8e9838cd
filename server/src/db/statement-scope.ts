import { AsyncLocalStorage } from 'node:async_hooks'

/** What the database adapters know of the request the statements they run are for. */
export type StatementScope = {
  /** Aborted when the request's client goes away: its statements are then not started, or cancelled. */
  signal: AbortSignal
  /** STATEMENT_TIMEOUT_SECONDS in ms: the longest a statement may take, its wait for the database included. */
  budgetMs: number
}

const scopes = new AsyncLocalStorage<StatementScope>()

/**
 * Runs `fn` (a request's handling) with `scope` known to every statement it issues, however deep in the
 * domain code, without passing it through every function. Statements outside a scope (start-up, command
 * line tools, work after an answer) run as before.
 */
export function withStatementScope<T>(scope: StatementScope, fn: () => T): T {
  return scopes.run(scope, fn)
}

export function statementScope(): StatementScope | undefined {
  return scopes.getStore()
}

/**
 * Runs `fn` as work of no request: work several requests share (a model fitted once and awaited by
 * all) or work that goes on after the answer must not end with the request that happened to start it.
 */
export function outsideStatementScope<T>(fn: () => T): T {
  return scopes.exit(fn)
}
