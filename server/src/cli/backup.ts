import { spawn as nodeSpawn } from 'node:child_process'
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { postgis } from '@electric-sql/pglite-postgis'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import { unaccent } from '@electric-sql/pglite/contrib/unaccent'
import { ConfigError, loadConfig, type Config } from '../config.ts'
import { keepFilesPrivate, PRIVATE_DIR, PRIVATE_FILE } from '../security/private-files.ts'

// `npm run backup -- [--out FILE] [--force]`: the database and the uploaded photos in one .tar.gz.
// Embedded PGlite: its data directory as PGlite's own dump (the server must be stopped first).
// PostgreSQL (DATABASE_URL): pg_dump's custom format, taken while the servers keep running.
// Exit codes: 0 written, 1 failed (nothing half-written is left), 2 wrong command line.

export const BACKUP_FORMAT = 1
export const PGLITE_DUMP = 'database/pglite-datadir.tar.gz'
export const POSTGRES_DUMP = 'database/postgres.dump'

export type BackupManifest = {
  format: typeof BACKUP_FORMAT
  created_at: string
  database: 'pglite' | 'postgres'
  uploads: number
}
export type BackupConfig = Pick<Config, 'dataDir' | 'databaseUrl'>

export class BackupError extends Error {}

export const pgliteExtensions = { postgis, pg_trgm, unaccent }

export const pgliteDir = (config: BackupConfig) => join(config.dataDir, 'pg')
export const uploadsDir = (config: BackupConfig) => join(config.dataDir, 'uploads')

/**
 * PGlite is one process's private database: a second process opening it while the server runs
 * would corrupt it. PGlite writes postmaster.pid while open and removes it on a clean close, so its
 * presence means the server runs, or was killed and has not been started and stopped since.
 */
export function assertPgliteClosed(config: BackupConfig, force: boolean): void {
  if (force || !existsSync(join(pgliteDir(config), 'postmaster.pid'))) return
  throw new BackupError(
    `The embedded database ${pgliteDir(config)} is open (postmaster.pid exists): stop the server first (SIGTERM or Ctrl+C). ` +
      'If no server is running (it was killed), pass --force.',
  )
}

/** How commands are started; tests pass one that records what would be visible in `ps`. */
export type Spawn = typeof nodeSpawn

/** Runs a command to completion; its stderr becomes the error message when it fails. */
export function run(
  cmd: string,
  args: string[],
  opts: { cwd?: string; env?: Record<string, string>; spawn?: Spawn } = {},
): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const spawn = opts.spawn ?? nodeSpawn
    const child = spawn(cmd, args, {
      cwd: opts.cwd,
      env: { ...process.env, ...opts.env },
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    let stderr = ''
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    child.on('error', (err) => reject(new BackupError(`${cmd} could not be started: ${err.message}`)))
    child.on('close', (code) =>
      code === 0
        ? resolvePromise()
        : reject(new BackupError(`${cmd} failed (exit ${code}): ${stderr.trim().slice(0, 2000)}`)),
    )
  })
}

/**
 * pg_dump / pg_restore's connection: the URL without its password for the command line (which every
 * user of the machine can read in `ps`), and the password in PGPASSWORD, which only this user sees.
 */
export function pgConnection(databaseUrl: string): { dbname: string; env: Record<string, string> } {
  const url = new URL(databaseUrl)
  const password = url.password ? decodeURIComponent(url.password) : url.searchParams.get('password')
  url.password = ''
  url.searchParams.delete('password')
  return { dbname: url.toString(), env: password ? { PGPASSWORD: password } : {} }
}

function countFiles(dir: string): number {
  if (!existsSync(dir)) return 0
  return readdirSync(dir, { withFileTypes: true }).reduce(
    (n, e) => n + (e.isDirectory() ? countFiles(join(dir, e.name)) : e.name.startsWith('.tmp-') ? 0 : 1),
    0,
  )
}

/** Writes one archive with the manifest, the database dump and DATA_DIR/uploads; returns what it holds. */
export async function createBackup(
  config: BackupConfig,
  out: string,
  opts: { force?: boolean; spawn?: Spawn } = {},
): Promise<BackupManifest & { file: string; bytes: number }> {
  const file = resolve(out)
  const database = config.databaseUrl ? 'postgres' : 'pglite'
  if (database === 'pglite') {
    if (!existsSync(join(pgliteDir(config), 'PG_VERSION')))
      throw new BackupError(`No embedded database in ${pgliteDir(config)}: check DATA_DIR.`)
    assertPgliteClosed(config, opts.force ?? false)
  }
  mkdirSync(dirname(file), { recursive: true, mode: PRIVATE_DIR })
  const staging = mkdtempSync(join(dirname(file), '.backup-'))
  const partial = `${file}.partial`
  try {
    mkdirSync(join(staging, 'database'))
    if (config.databaseUrl) {
      const { dbname, env } = pgConnection(config.databaseUrl)
      await run(
        'pg_dump',
        [
          '--format=custom',
          '--no-owner',
          '--no-privileges',
          `--file=${join(staging, POSTGRES_DUMP)}`,
          `--dbname=${dbname}`,
        ],
        { env, spawn: opts.spawn },
      )
    } else {
      const pg = await PGlite.create(pgliteDir(config), { extensions: pgliteExtensions })
      try {
        const dump = await pg.dumpDataDir('gzip')
        writeFileSync(join(staging, PGLITE_DUMP), new Uint8Array(await dump.arrayBuffer()))
      } finally {
        await pg.close()
      }
    }
    const uploads = uploadsDir(config)
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      created_at: new Date().toISOString(),
      database,
      uploads: countFiles(uploads),
    }
    writeFileSync(join(staging, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n')
    // Half-written temporaries of uploads in progress are left out; the database has no row for them yet.
    const tarArgs = ['-czf', partial, '-C', staging, 'manifest.json', 'database']
    if (existsSync(uploads)) tarArgs.push('--exclude=.tmp-*', '-C', config.dataDir, 'uploads')
    await run('tar', tarArgs, { spawn: opts.spawn })
    // Accounts and photos: the server's user only, whatever the umask of whoever ran the backup.
    chmodSync(partial, PRIVATE_FILE)
    // Renamed only once complete, so a backup file that exists is a whole one.
    renameSync(partial, file)
    return { ...manifest, file, bytes: statSync(file).size }
  } finally {
    rmSync(staging, { recursive: true, force: true })
    rmSync(partial, { force: true })
  }
}

export function defaultBackupFile(config: BackupConfig, now = new Date()): string {
  return join(config.dataDir, 'backups', `qh-backup-${now.toISOString().replace(/[:.]/g, '-')}.tar.gz`)
}

async function main(argv: string[]): Promise<number> {
  const usage = 'Usage: npm run backup -- [--out FILE.tar.gz] [--force]'
  let out: string | undefined
  let force = false
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!
    if (a === '--out' && argv[i + 1]) out = argv[++i]
    else if (a.startsWith('--out=')) out = a.slice('--out='.length)
    else if (a === '--force') force = true
    else if (a === '--help' || a === '-h') {
      process.stdout.write(`${usage}\nSee docs/operations.md\n`)
      return 0
    } else {
      process.stderr.write(`Unknown argument ${JSON.stringify(a)}\n${usage}\n`)
      return 2
    }
  }
  let config: Config
  try {
    config = loadConfig()
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err
    process.stderr.write(`${err.message}\n`)
    return 2
  }
  try {
    const done = await createBackup(config, out ?? defaultBackupFile(config), { force })
    process.stdout.write(
      `Backup written: ${done.file} (${(done.bytes / 1024 / 1024).toFixed(1)} MB; ${done.database} database, ${done.uploads} upload files)\n`,
    )
    return 0
  } catch (err) {
    if (!(err instanceof BackupError)) throw err
    process.stderr.write(`Backup failed, nothing written: ${err.message}\n`)
    return 1
  }
}

if (import.meta.main) {
  keepFilesPrivate()
  process.exit(await main(process.argv.slice(2)))
}
