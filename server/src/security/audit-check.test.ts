import { describe, expect, it } from 'vitest'
import { judgeAudit } from './audit-check.ts'

const report = (vulnerabilities: Record<string, { severity: string; via: unknown[] }>) =>
  JSON.stringify({
    auditReportVersion: 2,
    vulnerabilities,
    metadata: {
      vulnerabilities: {
        info: 0,
        low: 0,
        moderate: 0,
        high: 0,
        critical: 0,
        total: Object.keys(vulnerabilities).length,
      },
    },
  })

describe('judging npm audit', () => {
  it('passes a report with only low and moderate advisories', () => {
    expect(
      judgeAudit(
        report({
          a: { severity: 'moderate', via: ['b'] },
          b: { severity: 'low', via: [{ title: 'ReDoS', url: 'https://x' }] },
        }),
      ).kind,
    ).toBe('clean')
  })

  it('fails on a high or critical advisory and names it with its title', () => {
    const verdict = judgeAudit(
      report({
        'bad-lib': { severity: 'critical', via: [{ title: 'Prototype pollution', url: 'https://example.org/GHSA-1' }] },
        ok: { severity: 'low', via: [] },
      }),
    )
    expect(verdict).toMatchObject({
      kind: 'failed',
      findings: ['bad-lib (critical): Prototype pollution https://example.org/GHSA-1'],
    })
  })

  it('passes a high advisory accepted as an exception', () => {
    expect(
      judgeAudit(report({ 'dev-tool': { severity: 'high', via: ['x'] } }), {
        'dev-tool': 'only runs at build time on our own files',
      }).kind,
    ).toBe('clean')
  })

  it('reports an unreachable advisory service instead of passing or failing on it', () => {
    const error = JSON.stringify({
      message: '405 Method Not Allowed - POST https://registry.example/-/npm/v1/security/advisories/bulk',
      statusCode: 405,
    })
    expect(judgeAudit(error)).toEqual({
      kind: 'unreachable',
      reason: '405 Method Not Allowed - POST https://registry.example/-/npm/v1/security/advisories/bulk',
    })
    expect(judgeAudit('npm ERR! network request failed').kind).toBe('unreachable')
  })
})
