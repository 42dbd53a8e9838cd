import { spawnSync } from 'node:child_process'
import { resolve } from 'node:path'

/**
 * `node server/src/security/audit-check.ts`: runs `npm audit --json` over every dependency (dev
 * included) and fails on a high or critical advisory that is not an accepted exception below. When
 * the advisory service cannot be reached or its answer read (offline, a registry mirror without the audit
 * endpoint), it says "not checked" and exits with AUDIT_NOT_CHECKED: neither a pass nor a failure, and
 * `npm test` says so on its closing line.
 */

/** The exit code for an audit that could not run (0: no serious advisory; 1: some). */
export const AUDIT_NOT_CHECKED = 3

/** Accepted high/critical advisories: package name → why it does not apply. docs/operations.md lists the same. */
export const auditExceptions: Record<string, string> = {}

export type AuditVerdict =
  | { kind: 'clean'; counts: Record<string, number> }
  | { kind: 'unreachable'; reason: string }
  | { kind: 'failed'; findings: string[]; counts: Record<string, number> }

type AuditJson = {
  vulnerabilities?: Record<
    string,
    { severity?: string; via?: (string | { title?: string; url?: string; severity?: string })[] }
  >
  metadata?: { vulnerabilities?: Record<string, number> }
  message?: string
  error?: { summary?: string; detail?: string }
}

const serious = new Set(['high', 'critical'])

export function judgeAudit(stdout: string, exceptions: Record<string, string> = auditExceptions): AuditVerdict {
  let report: AuditJson
  try {
    report = JSON.parse(stdout) as AuditJson
  } catch {
    return { kind: 'unreachable', reason: stdout.trim().split('\n')[0]?.slice(0, 200) || 'npm audit printed nothing' }
  }
  if (!report.vulnerabilities || !report.metadata?.vulnerabilities) {
    return { kind: 'unreachable', reason: report.message ?? report.error?.summary ?? 'no audit report in the answer' }
  }
  const counts = report.metadata.vulnerabilities
  const findings = Object.entries(report.vulnerabilities)
    .filter(([name, v]) => serious.has(v.severity ?? '') && !(name in exceptions))
    .map(([name, v]) => {
      const why = (v.via ?? [])
        .map((x) => (typeof x === 'string' ? `via ${x}` : `${x.title ?? ''} ${x.url ?? ''}`.trim()))
        .join('; ')
      return `${name} (${v.severity}): ${why}`
    })
  return findings.length > 0 ? { kind: 'failed', findings, counts } : { kind: 'clean', counts }
}

if (import.meta.main) {
  const res = spawnSync('npm', ['audit', '--json'], {
    cwd: resolve(import.meta.dirname, '../../..'),
    encoding: 'utf8',
    timeout: 120_000,
  })
  const verdict = res.error
    ? ({ kind: 'unreachable', reason: res.error.message } as const)
    : judgeAudit(res.stdout ?? '')
  if (verdict.kind === 'unreachable') {
    process.stdout.write(
      `npm audit: not checked, the advisory service could not be reached or read (${verdict.reason}).\n`,
    )
    process.exitCode = AUDIT_NOT_CHECKED
  } else if (verdict.kind === 'clean') {
    const excepted = Object.keys(auditExceptions)
    process.stdout.write(
      `npm audit: no high or critical advisory${excepted.length ? ` outside the accepted exceptions (${excepted.join(', ')})` : ''}. All: ${JSON.stringify(verdict.counts)}\n`,
    )
  } else {
    process.stdout.write(
      `npm audit: high or critical advisories (fix them, or accept each in server/src/security/audit-check.ts and docs/operations.md with its reason):\n${verdict.findings.map((f) => `  ${f}`).join('\n')}\n`,
    )
    process.exitCode = 1
  }
}
