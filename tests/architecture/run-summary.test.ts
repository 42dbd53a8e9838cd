import { describe, expect, it } from 'vitest'
import { AUDIT_NOT_CHECKED } from '../../server/src/security/audit-check.ts'
import { addReport, auditOutcome, closingLines, type SuiteReport } from '../support/run-summary.ts'

const report = (r: Partial<SuiteReport>): SuiteReport => ({
  numPassedTests: 0,
  numFailedTests: 0,
  numPendingTests: 0,
  numTodoTests: 0,
  testResults: [],
  ...r,
})

describe("npm test's closing line", () => {
  it('counts skipped and todo tests beside the passed and failed ones', () => {
    let tally = { passed: 0, failed: 0, skipped: 0 }
    tally = addReport(tally, report({ numPassedTests: 120, numPendingTests: 9 }))
    tally = addReport(tally, report({ numPassedTests: 3, numFailedTests: 1, numTodoTests: 1 }))
    expect(closingLines(tally, 'passed')).toEqual(['123 passed, 1 failed, 10 skipped'])
  })

  it('counts a file that could not load as a failure though no test in it ran', () => {
    const tally = addReport({ passed: 0, failed: 0, skipped: 0 }, report({ testResults: [{ status: 'failed' }] }))
    expect(tally.failed).toBe(1)
  })

  it('says on the last line when the audit could not be checked, instead of reading as a pass', () => {
    expect([0, 1, null, AUDIT_NOT_CHECKED].map(auditOutcome)).toEqual(['passed', 'failed', 'failed', 'not checked'])
    const lines = closingLines({ passed: 5, failed: 0, skipped: 0 }, auditOutcome(AUDIT_NOT_CHECKED))
    expect(lines.at(-1)).toBe('unaudited: 5 passed, 0 failed, 0 skipped')
    expect(lines.join('\n')).toMatch(/not checked/)
  })
})
