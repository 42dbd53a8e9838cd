import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { removeTempDirs, startServer, tempDir } from '../../../tests/faults/process.ts'
import { claimEmbeddedDatabase } from './owner-lock.ts'
import { openPglite } from './pglite.ts'

afterAll(() => removeTempDirs())

const root = join(import.meta.dirname, '../../..')

/** A one-parcel GeoJSON in TP.HCM, far from the demo ward. */
function parcelFile(dir: string): string {
  const file = join(dir, 'mot-thua.geojson')
  const [x, y, d] = [106.75, 10.85, 0.0002]
  writeFileSync(
    file,
    JSON.stringify({
      type: 'FeatureCollection',
      features: [
        {
          type: 'Feature',
          properties: { so_to: 18, so_thua: 118, phuong_xa: 'Phường Thử', tinh_tp: 'TP.HCM' },
          geometry: {
            type: 'Polygon',
            coordinates: [
              [
                [x, y],
                [x + d, y],
                [x + d, y + d],
                [x, y + d],
                [x, y],
              ],
            ],
          },
        },
      ],
    }),
  )
  return file
}

function runImport(dataDir: string, file: string) {
  return spawnSync(
    process.execPath,
    [
      'server/src/cli/import.ts',
      file,
      '--kind',
      'parcels',
      '--source',
      'Thử',
      '--date',
      '2024-06-01',
      '--dataset',
      'mot-thua',
    ],
    {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'warn' },
      timeout: 300_000,
    },
  )
}

async function datasetIds(dataDir: string): Promise<string[]> {
  const db = await openPglite(join(dataDir, 'pg'))
  try {
    return (await db.query<{ id: string }>('select id from datasets order by id')).map((r) => r.id)
  } finally {
    await db.close()
  }
}

describe('one owner for the embedded database', () => {
  it('refuses a second process with one line, takes over a lock whose process is gone, and lets go on release', () => {
    const dir = join(tempDir('qh-lock-'), 'pg')
    const held = claimEmbeddedDatabase(dir)
    const other = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { claimEmbeddedDatabase } from ${JSON.stringify(join(import.meta.dirname, 'owner-lock.ts'))}; try { claimEmbeddedDatabase(${JSON.stringify(dir)}); console.log('claimed') } catch (e) { console.log(e.name + ': ' + e.message) }`,
      ],
      { encoding: 'utf8' },
    )
    expect(other.stdout).toMatch(
      new RegExp(`^DatabaseInUseError: Cơ sở dữ liệu nhúng .* đang được tiến trình ${process.pid} mở`),
    )
    held.release()
    expect(existsSync(`${dir}.lock`)).toBe(false)

    // A lock left by a process that no longer exists (killed with SIGKILL): detected as stale.
    const dead = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' })
    writeFileSync(
      `${dir}.lock`,
      JSON.stringify({
        pid: Number(dead.stdout.trim()),
        host: hostname(),
        since: '2026-01-01T00:00:00Z',
        command: 'server/src/main.ts',
      }),
    )
    const again = claimEmbeddedDatabase(dir)
    expect(JSON.parse(readFileSync(`${dir}.lock`, 'utf8')).pid).toBe(process.pid)
    again.release()
  })

  it('an import beside a running server on the embedded database is refused with one line and changes nothing; after a SIGKILL of the server it goes in and stays when the database is opened again', async () => {
    const dataDir = tempDir('qh-owner-')
    // Beside the data directory, not in it: an empty one starts as a copy of the run's prepared first start
    // (tests/support/prepared-data.ts) instead of migrating and loading the boundaries itself.
    const file = parcelFile(tempDir('qh-owner-file-'))
    const server = await startServer({ dataDir, env: { DEMO_DATA: 'false' } })
    try {
      const refused = runImport(dataDir, file)
      expect(refused.status).toBe(1)
      const lines = refused.stderr.trim().split('\n')
      expect(lines).toHaveLength(1)
      expect(lines[0]).toMatch(
        new RegExp(
          `^Không nhập được: Cơ sở dữ liệu nhúng .* đang được tiến trình ${server.child.pid} mở .*Không có gì thay đổi\\.$`,
        ),
      )
      expect(refused.stdout).toBe('')
      expect((await fetch(`${server.url}/api/health`)).status).toBe(200)
    } finally {
      server.child.kill('SIGKILL')
      await server.exited
    }

    // The killed server's lock is stale: the import detects it and goes in.
    const imported = runImport(dataDir, file)
    expect(imported.stderr).not.toMatch(/Không nhập được/)
    expect(imported.status).toBe(0)
    expect(imported.stdout).toMatch(/Đã nhập bộ dữ liệu "mot-thua"/)

    // Opened again, as the next server start would, the database holds it beside the national boundaries
    // the first start loaded.
    expect(await datasetIds(dataDir)).toEqual(['mot-thua', 'vn-admin-2025'])
    // A server start and two CLI runs on the embedded database: minutes on a loaded 2-core machine.
  }, 600_000)
})
