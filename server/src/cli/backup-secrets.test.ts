import { spawn as nodeSpawn, type SpawnOptions } from 'node:child_process'
import { mkdtempSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createBackup, pgConnection, type Spawn } from './backup.ts'
import { restoreBackup } from './restore.ts'

type Call = { cmd: string; args: string[]; env: NodeJS.ProcessEnv | undefined }

/**
 * Starts tar for real and stands in for pg_dump / pg_restore (writing an empty dump), recording what
 * each command was given: its arguments are what every user of the machine can read in `ps`.
 */
function recordingSpawn(calls: Call[]): Spawn {
  return ((cmd: string, args: string[], opts: SpawnOptions) => {
    calls.push({ cmd, args, env: opts.env })
    if (cmd === 'pg_dump') {
      const file = args.find((a) => a.startsWith('--file='))?.slice('--file='.length) ?? ''
      return nodeSpawn(process.execPath, ['-e', `require('node:fs').writeFileSync(${JSON.stringify(file)}, '')`], opts)
    }
    if (cmd === 'pg_restore') return nodeSpawn(process.execPath, ['-e', ''], opts)
    return nodeSpawn(cmd, args, opts)
  }) as Spawn
}

const SECRET = 'Mật-khẩu/bí@mật:1'
const databaseUrl = `postgres://qh_app:${encodeURIComponent(SECRET)}@db.example.vn:5432/quyhoach?sslmode=require`

describe('pg_dump and pg_restore get the database password through the environment', () => {
  it('splits a URL into a password-free --dbname and PGPASSWORD', () => {
    expect(pgConnection(databaseUrl)).toEqual({
      dbname: 'postgres://qh_app@db.example.vn:5432/quyhoach?sslmode=require',
      env: { PGPASSWORD: SECRET },
    })
    expect(pgConnection('postgres://qh@h/db?password=abc&sslmode=require')).toEqual({
      dbname: 'postgres://qh@h/db?sslmode=require',
      env: { PGPASSWORD: 'abc' },
    })
    expect(pgConnection('postgres://qh@h/db')).toEqual({ dbname: 'postgres://qh@h/db', env: {} })
  })

  it('never puts the password on the command line of a backup or a restore, and writes the archive readable by its owner only', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'qh-backup-secret-'))
    writeFileSync(join(dataDir, 'marker'), '')
    const calls: Call[] = []
    const spawn = recordingSpawn(calls)
    const previous = process.umask(0o022)
    let archive: string
    try {
      archive = (await createBackup({ dataDir, databaseUrl }, join(dataDir, 'backups', 'qh.tar.gz'), { spawn })).file
    } finally {
      process.umask(previous)
    }
    expect(statSync(archive).mode & 0o777).toBe(0o600)
    await restoreBackup({ dataDir, databaseUrl }, archive, { spawn })

    const pg = calls.filter((c) => c.cmd === 'pg_dump' || c.cmd === 'pg_restore')
    expect(pg.map((c) => c.cmd)).toEqual(['pg_dump', 'pg_restore'])
    for (const call of calls) {
      const line = call.args.join(' ')
      expect(line).not.toContain(SECRET)
      expect(line).not.toContain(encodeURIComponent(SECRET))
    }
    for (const call of pg) {
      expect(call.args).toContain('--dbname=postgres://qh_app@db.example.vn:5432/quyhoach?sslmode=require')
      expect(call.env?.PGPASSWORD).toBe(SECRET)
    }
  })
})
