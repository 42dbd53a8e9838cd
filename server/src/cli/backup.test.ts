import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../db/database.ts'
import { migrate } from '../db/migrate.ts'
import { openPglite } from '../db/pglite.ts'
import { openPostgres } from '../db/postgres.ts'
import { fillDataDir } from '../../../tests/support/prepared-data.ts'

// The round trip runs the real commands as `npm run backup` / `npm run restore` do, on the database
// this suite runs on: the embedded PGlite, or PostgreSQL (a scratch database) when DATABASE_URL is set.
const root = resolve(import.meta.dirname, '../../..')
const serverUrl = process.env.DATABASE_URL || undefined
const dataDir = mkdtempSync(join(tmpdir(), 'qh-backup-'))
let scratchUrl: string | undefined

function cli(script: 'backup' | 'restore', args: string[]) {
  const res = spawnSync(process.execPath, [join(root, `server/src/cli/${script}.ts`), ...args], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: scratchUrl ?? '' },
    encoding: 'utf8',
    timeout: 180_000,
  })
  return { code: res.status, out: res.stdout, err: res.stderr }
}

async function open(): Promise<Database> {
  return scratchUrl ? openPostgres(scratchUrl) : openPglite(join(dataDir, 'pg'))
}

async function withDb<T>(fn: (db: Database) => Promise<T>): Promise<T> {
  const db = await open()
  try {
    return await fn(db)
  } finally {
    await db.close()
  }
}

const emails = (db: Database) =>
  db
    .query<{ email: string }>("select email from users where email like '%@backup.example.vn' order by email")
    .then((r) => r.map((x) => x.email))
const addUser = (db: Database, email: string) =>
  db
    .query(
      "insert into users (name, email, password_hash, created_at) values ('Sao Lưu', $1, 'scrypt$x', now()) returning id::text as id",
      [email],
    )
    .then((r) => (r[0] as { id: string }).id)

beforeAll(async () => {
  if (serverUrl) {
    const name = `qh_backup_${Date.now().toString(36)}`
    const admin = new pg.Client({ connectionString: serverUrl })
    await admin.connect()
    await admin.query(`create database ${name}`)
    await admin.end()
    const url = new URL(serverUrl)
    url.pathname = `/${name}`
    scratchUrl = url.toString()
  }
  // On the embedded database, the folder a first start without the demo data leaves (migrated, no dataset).
  if (!scratchUrl) await fillDataDir(dataDir, { DEMO_DATA: 'false' })
  await withDb(async (db) => {
    await migrate(db)
    const id = await addUser(db, 'a-truoc@backup.example.vn')
    await db.query("insert into usage_daily (user_id, day, count) values ($1, '2026-01-02', 7)", [id])
  })
  mkdirSync(join(dataDir, 'uploads/ab'), { recursive: true })
  writeFileSync(join(dataDir, 'uploads/ab/truoc.jpg'), 'anh chup truoc khi sao luu')
})

afterAll(async () => {
  if (serverUrl && scratchUrl) {
    const admin = new pg.Client({ connectionString: serverUrl })
    await admin.connect()
    await admin.query(`drop database if exists ${new URL(scratchUrl).pathname.slice(1)} with (force)`)
    await admin.end()
  }
  rmSync(dataDir, { recursive: true, force: true })
})

describe(`npm run backup / npm run restore (${serverUrl ? 'PostgreSQL' : 'embedded PGlite'})`, () => {
  it('brings back the accounts, usage counts and photos of the backup and drops what came after', async () => {
    const file = join(dataDir, 'saved/backup.tar.gz')
    const backup = cli('backup', ['--out', file])
    expect(backup.err).toBe('')
    expect(backup.code).toBe(0)
    expect(backup.out).toMatch(/Backup written: .*backup\.tar\.gz .*1 upload files/)
    expect(existsSync(file)).toBe(true)

    await withDb(async (db) => {
      await db.query("delete from users where email = 'a-truoc@backup.example.vn'")
      await addUser(db, 'b-sau@backup.example.vn')
    })
    rmSync(join(dataDir, 'uploads/ab/truoc.jpg'))
    writeFileSync(join(dataDir, 'uploads/ab/sau.jpg'), 'anh chup sau')

    const restore = cli('restore', [file])
    expect(restore.err).toBe('')
    expect(restore.code).toBe(0)
    expect(restore.out).toMatch(/Restored the backup of .*1 upload files/)

    await withDb(async (db) => {
      expect(await emails(db)).toEqual(['a-truoc@backup.example.vn'])
      const usage = await db.query<{ count: number }>(
        "select u.count::int as count from usage_daily u join users x on x.id = u.user_id where x.email = 'a-truoc@backup.example.vn'",
      )
      expect(usage).toEqual([{ count: 7 }])
      // PostGIS came back with the data.
      expect(await db.query('select ST_AsText(ST_MakePoint(106.7, 10.8))::text as p')).toEqual([
        { p: 'POINT(106.7 10.8)' },
      ])
    })
    expect(readFileSync(join(dataDir, 'uploads/ab/truoc.jpg'), 'utf8')).toBe('anh chup truoc khi sao luu')
    expect(existsSync(join(dataDir, 'uploads/ab/sau.jpg'))).toBe(false)
  }, 300_000) // two real commands, each opening the embedded database: over a minute on a busy 2-core machine

  it.skipIf(serverUrl)('refuses to back up or restore an embedded database a server has open', async () => {
    // PGlite keeps postmaster.pid while a process has the database open.
    writeFileSync(join(dataDir, 'pg/postmaster.pid'), '-42\n')
    try {
      const backup = cli('backup', ['--out', join(dataDir, 'saved/refused.tar.gz')])
      expect(backup.code).toBe(1)
      expect(backup.err).toMatch(/stop the server first/)
      expect(existsSync(join(dataDir, 'saved/refused.tar.gz'))).toBe(false)
      const restore = cli('restore', [join(dataDir, 'saved/backup.tar.gz')])
      expect(restore.code).toBe(1)
      expect(restore.err).toMatch(/Restore failed, data unchanged: .*stop the server first/)
    } finally {
      rmSync(join(dataDir, 'pg/postmaster.pid'), { force: true })
    }
  })

  it('refuses a file that is not one of its backups and changes nothing', async () => {
    const junk = join(dataDir, 'junk.tar.gz')
    writeFileSync(junk, 'not a tarball')
    const restore = cli('restore', [junk])
    expect(restore.code).toBe(1)
    expect(restore.err).toMatch(/^Restore failed, data unchanged: tar failed/)
    await withDb(async (db) => expect(await emails(db)).toEqual(['a-truoc@backup.example.vn']))
  })
})
