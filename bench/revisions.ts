import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync, rmSync, symlinkSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  controlsUsableOnce,
  lighthouseFigures,
  mapVisibleOnce,
  type ControlsUsable,
  type LighthouseFigures,
  type MapVisible,
} from './frontend.ts'
import { readDist, summariseDist, total } from './lib/dist-chunks.ts'
import { ratio } from './lib/stats.ts'
import { fmt, type Table } from './lib/table.ts'

/**
 * The front end's figures per change (`npm run bench -- --revisions A,B,…`): each revision is checked out (git
 * archive) under $TMPDIR/qh-bench/revisions/<commit>, built, and run by its own server on its own embedded
 * database (both kept for the next run), so a change to the server's answers counts too. The revisions then take
 * turns, round after round, each measured the way section 3 measures the current build: the machine's load falls
 * on all of them alike, and the table says which change moved a figure.
 */

export type RevisionRun = {
  rev: string
  commit: string
  date: string
  subject: string
  firstPaintGzip: number | null
  lighthouse: { cold: LighthouseFigures; warm: LighthouseFigures }[]
  mapVisible: { cold: MapVisible; warm: MapVisible }[]
  controls: { cold: ControlsUsable; warm: ControlsUsable }[]
}

type Revision = { rev: string; commit: string; date: string; subject: string; dir: string }

function git(root: string, args: string[]): string {
  const res = spawnSync('git', args, { cwd: root, encoding: 'utf8' })
  if (res.status !== 0) throw new Error(`git ${args.join(' ')}: ${res.stderr.trim()}`)
  return res.stdout.trim()
}

function resolveRevision(root: string, rev: string): Revision {
  const commit = git(root, ['rev-parse', '--verify', `${rev}^{commit}`])
  const [date = '', subject = ''] = git(root, ['log', '-1', '--format=%cd%x00%s', '--date=format:%d %b %H:%M', commit])
    .split('\0')
    .map((s) => s.trim())
  return { rev, commit, date, subject, dir: join(tmpdir(), 'qh-bench', 'revisions', commit.slice(0, 12)) }
}

/** The revision's files and build, made once and kept: a later run with the same revision starts at once. */
function checkoutAndBuild(root: string, r: Revision, log: (s: string) => void): void {
  if (!existsSync(join(r.dir, 'package.json'))) {
    log(`  ${r.rev}: checking out ${r.commit.slice(0, 12)}…`)
    rmSync(r.dir, { recursive: true, force: true })
    mkdirSync(r.dir, { recursive: true })
    const archive = spawnSync('sh', ['-c', `git archive ${r.commit} | tar -x -C "${r.dir}"`], {
      cwd: root,
      encoding: 'utf8',
    })
    if (archive.status !== 0) throw new Error(`checking out ${r.rev}: ${archive.stderr}`)
    // The packages installed now: close enough for the front end's build and the server, and nothing to download.
    symlinkSync(join(root, 'node_modules'), join(r.dir, 'node_modules'), 'dir')
  }
  if (!existsSync(join(r.dir, 'dist', 'index.html'))) {
    log(`  ${r.rev}: building…`)
    const build = spawnSync(process.execPath, ['server/src/cli/build.ts', '--force'], { cwd: r.dir, encoding: 'utf8' })
    if (build.status !== 0) throw new Error(`building ${r.rev}: ${build.stderr}\n${build.stdout}`)
  }
}

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const srv = createServer()
    srv.unref()
    srv.on('error', reject)
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address()
      const port = typeof addr === 'object' && addr ? addr.port : 0
      srv.close(() => resolvePort(port))
    })
  })
}

/** The revision's own server on its own data (the demo data loads on its first start only). */
async function startRevisionServer(r: Revision): Promise<{ url: string; stop(): Promise<void> }> {
  const port = await freePort()
  let log = ''
  const child: ChildProcess = spawn(process.execPath, ['server/src/main.ts'], {
    cwd: r.dir,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: join(r.dir, 'data'),
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
      DAILY_LOOKUP_LIMIT: '1000000',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  child.stderr?.on('data', (d: Buffer) => (log += d.toString()))
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 20 * 60_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server of ${r.rev} exited with ${child.exitCode}: ${log}`)
    if (
      await fetch(`${url}/api/health`).then(
        (res) => res.ok,
        () => false,
      )
    )
      break
    if (Date.now() > deadline) {
      child.kill('SIGKILL')
      throw new Error(`the server of ${r.rev} did not start: ${log}`)
    }
    await new Promise((res) => setTimeout(res, 500))
  }
  return {
    url,
    async stop() {
      if (child.exitCode !== null) return
      const exited = new Promise((res) => child.once('exit', res))
      child.kill('SIGTERM')
      await exited
    },
  }
}

const median = (xs: number[]) => {
  const s = xs.filter(Number.isFinite).sort((a, b) => a - b)
  return s.length === 0 ? Number.NaN : (s[Math.floor(s.length / 2)] as number)
}

export async function revisionsSection(o: {
  root: string
  revisions: string[]
  rounds: number
  mapVisible: boolean
  show: (t: Table) => void
  log: (s: string) => void
}): Promise<RevisionRun[]> {
  const revisions = o.revisions.map((rev) => resolveRevision(o.root, rev))
  o.log(`Per-change front-end figures for ${revisions.length} revisions, ${o.rounds} rounds…`)
  for (const r of revisions) checkoutAndBuild(o.root, r, o.log)
  const runs: RevisionRun[] = revisions.map((r) => {
    let firstPaintGzip: number | null = null
    try {
      const g = readDist(join(r.dir, 'dist'))
      firstPaintGzip = total(g, summariseDist(g, 'demo').firstPaint).gzip
    } catch {}
    return {
      rev: r.rev,
      commit: r.commit,
      date: r.date,
      subject: r.subject,
      firstPaintGzip,
      lighthouse: [],
      mapVisible: [],
      controls: [],
    }
  })
  const failures: string[] = []
  // One server at a time: the others' idle memory and timers stay out of the measured one's way.
  for (let round = 0; round < o.rounds; round++) {
    for (const [i, r] of revisions.entries()) {
      o.log(`  round ${round + 1}: ${r.rev}`)
      const server = await startRevisionServer(r)
      // A measure that fails once (a page that timed out while the machine was swamped) is left out of that
      // revision's medians and said in the notes, rather than ending a run of twenty minutes.
      const attempt = async <T>(what: string, measure: () => Promise<T>, into: T[]) => {
        try {
          into.push(await measure())
        } catch (err) {
          failures.push(`${r.commit.slice(0, 7)} round ${round + 1}, ${what}: ${(err as Error).message.split('\n')[0]}`)
          o.log(`    ${what} failed: ${(err as Error).message.split('\n')[0]}`)
        }
      }
      try {
        const url = `${server.url}/demo`
        await attempt('Lighthouse', () => lighthouseFigures(url), runs[i]!.lighthouse)
        if (o.mapVisible) {
          await attempt('map visible', () => mapVisibleOnce(url), runs[i]!.mapVisible)
          await attempt('controls usable', () => controlsUsableOnce(url), runs[i]!.controls)
        }
      } finally {
        await server.stop()
      }
    }
  }
  const base = median(runs[0]!.lighthouse.map((l) => l.cold.lcpMs))
  const row = (run: RevisionRun) => {
    const lcp = median(run.lighthouse.map((l) => l.cold.lcpMs))
    return [
      `${run.commit.slice(0, 7)} ${run.date}`,
      run.subject.length > 70 ? `${run.subject.slice(0, 69)}…` : run.subject,
      fmt.kb(run.firstPaintGzip),
      fmt.ms(median(run.lighthouse.map((l) => l.cold.fcpMs))),
      fmt.ms(lcp),
      fmt.ratio(ratio(lcp, base)),
      fmt.ms(median(run.lighthouse.map((l) => l.cold.tbtMs))),
      fmt.ms(median(run.lighthouse.map((l) => l.warm.lcpMs))),
      fmt.ms(median(run.lighthouse.map((l) => l.warm.tbtMs))),
      o.mapVisible ? fmt.ms(median(run.mapVisible.map((m) => m.cold.ms ?? Number.NaN))) : '—',
      o.mapVisible ? fmt.ms(median(run.mapVisible.map((m) => m.warm.ms ?? Number.NaN))) : '—',
      o.mapVisible ? fmt.ms(median(run.controls.map((c) => c.cold.ms ?? Number.NaN))) : '—',
      o.mapVisible ? fmt.ms(median(run.controls.map((c) => c.warm.ms ?? Number.NaN))) : '—',
    ]
  }
  o.show({
    title: `3e. Front end per change — Lighthouse on /demo (mobile, simulated Slow 4G, 4× CPU), map visible and controls usable, median of ${o.rounds} rounds taken in turn (ms)`,
    head: [
      'revision',
      'change',
      'first paint gzip kB',
      'FCP cold',
      'LCP cold',
      'LCP ÷ first',
      'TBT cold',
      'LCP warm',
      'TBT warm',
      'map visible cold',
      'map visible warm',
      'controls usable cold',
      'controls usable warm',
    ],
    rows: runs.map(row),
    notes: [
      'Each revision built and served by its own server on its own embedded database, one at a time; the rounds take the revisions in turn.',
      ...runs.map(
        (r) =>
          `${r.commit.slice(0, 7)} LCP cold, each round: ${r.lighthouse.map((l) => fmt.ms(l.cold.lcpMs)).join(', ')}`,
      ),
      ...failures.map((f) => `not measured: ${f}`),
    ],
  })
  return runs
}
