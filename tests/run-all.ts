import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { PREPARED_DATA_ENV } from './support/prepared-data.ts'
import { addReport, auditOutcome, closingLines, type SuiteReport } from './support/run-summary.ts'

/**
 * `npm test`: type check, lint, build, unit + size-budget + server tests on the embedded database, the server tests again on
 * PostgreSQL when TEST_DATABASE_URL is set, then end-to-end tests in Chromium, then an npm audit. Ends with
 * one `N passed, N failed, N skipped` line summing every suite (tests/support/run-summary.ts).
 */
const root = resolve(import.meta.dirname, '..')
const node = process.execPath
const vitest = join(root, 'node_modules/vitest/vitest.mjs')
const out = mkdtempSync(join(tmpdir(), 'qh-test-results-'))
// The data directories a first start makes (tests/support/prepared-data.ts): made once, by the first test that
// starts a server, for every suite of the run instead of once per suite or per file.
const prepared = mkdtempSync(join(tmpdir(), 'qh-prepared-'))
process.env[PREPARED_DATA_ENV] = prepared
let tally = { passed: 0, failed: 0, skipped: 0 }
const problems: string[] = []

function run(name: string, args: string[], env: Record<string, string | undefined> = {}): number | null {
  process.stdout.write(`\n=== ${name}\n`)
  return spawnSync(node, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } }).status
}

function step(name: string, args: string[], env: Record<string, string | undefined> = {}): boolean {
  const status = run(name, args, env)
  if (status !== 0) problems.push(`${name} (exit ${status})`)
  return status === 0
}

const fail = () => void (tally.failed += 1)

type Ended = { name: string; output: string; status: number | null }

/** Runs `steps` two at a time; each step's output is printed whole, in the given order, and counts as `step` does. */
async function checks(steps: [name: string, args: string[]][]): Promise<void> {
  const runOne = ([name, args]: [string, string[]]) =>
    new Promise<Ended>((done) => {
      const child = spawn(node, args, { cwd: root, env: process.env })
      let output = ''
      child.stdout.on('data', (b: Buffer) => (output += b.toString()))
      child.stderr.on('data', (b: Buffer) => (output += b.toString()))
      child.on('error', (err) => done({ name, output: output + String(err), status: null }))
      child.on('close', (status) => done({ name, output, status }))
    })
  const ended: Ended[] = []
  let next = 0
  const lane = async () => {
    while (next < steps.length) {
      const i = next++
      ended[i] = await runOne(steps[i] as [string, string[]])
    }
  }
  await Promise.all([lane(), lane()])
  for (const { name, output, status } of ended) {
    process.stdout.write(`\n=== ${name}\n${output}`)
    if (status !== 0) {
      problems.push(`${name} (exit ${status})`)
      fail()
    }
  }
}

function vitestStep(name: string, projects: string[], env: Record<string, string | undefined> = {}) {
  const file = join(out, `${name.replace(/\W+/g, '-')}.json`)
  step(
    name,
    [
      vitest,
      'run',
      ...projects.flatMap((p) => ['--project', p]),
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${file}`,
    ],
    env,
  )
  if (!existsSync(file)) return fail()
  tally = addReport(tally, JSON.parse(readFileSync(file, 'utf8')) as SuiteReport)
}

const skipE2e = process.argv.includes('--no-e2e')
// The four checks are single-threaded and independent: two at a time on two cores, each one's output printed
// whole when it ends.
await checks([
  ['type check', [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json', '--noEmit']],
  // ESLint with the architecture's import boundaries (eslint.config.js); any warning fails too.
  ['lint', [join(root, 'node_modules/eslint/bin/eslint.js'), '--max-warnings', '0', '.']],
  [
    'type check (service worker)',
    [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'sw/tsconfig.json', '--noEmit'],
  ],
  // The code is kept in Prettier's format (.prettierrc); `npm run format` rewrites it.
  [
    'format',
    [
      join(root, 'node_modules/prettier/bin/prettier.cjs'),
      '--check',
      '--log-level',
      'warn',
      '**/*.{ts,tsx,mts,js,mjs}',
    ],
  ],
])
const built = step('build', ['server/src/cli/build.ts'])
if (!built) fail()
// The size budgets read the build just made.
vitestStep(
  'unit, architecture, size-budget and server tests (embedded PGlite)',
  ['client', 'architecture', 'budgets', 'server'],
  { DATABASE_URL: '' },
)
const pgUrl = process.env.TEST_DATABASE_URL
if (pgUrl) vitestStep('server tests (PostgreSQL)', ['server'], { DATABASE_URL: pgUrl })
else process.stdout.write('\n(TEST_DATABASE_URL not set: server tests on PostgreSQL skipped; .ci/run sets it)\n')
if (!skipE2e && built) vitestStep('end-to-end tests (Chromium)', ['e2e'], { DATABASE_URL: '' })
// Fault injection (servers killed, starved, restarted) and the 200-user load test take minutes: only with
// LONG_TESTS=1, as .ci/run sets. They run last among the suites, alone, so the load test has the cores to itself.
if (process.env.LONG_TESTS === '1') {
  vitestStep('fault tests (real server processes)', ['faults'], { DATABASE_URL: '', TEST_DATABASE_URL: pgUrl })
  vitestStep('load test (200 users for 60 s)', ['load'], { DATABASE_URL: '' })
} else process.stdout.write('\n(LONG_TESTS not set: fault and load tests skipped; .ci/run sets LONG_TESTS=1)\n')
// An audit that could not reach the advisory service is neither a pass nor a failure: the closing line says so.
const auditStatus = run('npm audit (high and critical advisories)', ['server/src/security/audit-check.ts'])
const audit = auditOutcome(auditStatus)
if (audit === 'failed') {
  problems.push(`npm audit (exit ${auditStatus})`)
  fail()
}

rmSync(prepared, { recursive: true, force: true })
if (problems.length > 0) process.stdout.write(`\nFailed steps: ${problems.join('; ')}\n`)
process.stdout.write(`\n${closingLines(tally, audit).join('\n')}\n`)
process.exit(tally.failed > 0 || problems.length > 0 ? 1 : 0)
