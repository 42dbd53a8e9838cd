import { AUDIT_NOT_CHECKED } from '../../server/src/security/audit-check.ts'

/** What `npm test` (tests/run-all.ts) adds up from each vitest run's JSON report, and how it says it. */

/** The parts of vitest's JSON report the tally reads. */
export type SuiteReport = {
  numPassedTests: number
  numFailedTests: number
  numPendingTests: number
  numTodoTests: number
  testResults: { status: string }[]
}

export type Tally = { passed: number; failed: number; skipped: number }

export function addReport(tally: Tally, report: SuiteReport): Tally {
  // A file that fails to load has no test counted; count it as a failure so it cannot hide.
  const unloaded = report.numFailedTests === 0 && report.testResults.some((r) => r.status === 'failed') ? 1 : 0
  return {
    passed: tally.passed + report.numPassedTests,
    failed: tally.failed + report.numFailedTests + unloaded,
    skipped: tally.skipped + report.numPendingTests + report.numTodoTests,
  }
}

/** The audit step's outcome: it ran and passed, ran and found advisories, or could not run at all. */
export type AuditOutcome = 'passed' | 'failed' | 'not checked'

/** The outcome of server/src/security/audit-check.ts from its exit status (null: it did not exit by itself). */
export function auditOutcome(status: number | null): AuditOutcome {
  return status === 0 ? 'passed' : status === AUDIT_NOT_CHECKED ? 'not checked' : 'failed'
}

/**
 * The run's closing lines. The last is `N passed, N failed, N skipped` alone (the form CI reads), led by
 * `unaudited:` when the audit could not be checked, so a run without an audit never reads as a clean one.
 */
export function closingLines(tally: Tally, audit: AuditOutcome): string[] {
  const counts = `${tally.passed} passed, ${tally.failed} failed, ${tally.skipped} skipped`
  if (audit !== 'not checked') return [counts]
  return [
    'npm audit: not checked (the advisory service could not be reached or read); not a pass.',
    `unaudited: ${counts}`,
  ]
}
