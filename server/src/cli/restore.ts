import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { claimEmbeddedDatabase, DatabaseInUseError } from '../db/owner-lock.ts'
import { ConfigError, loadConfig, type Config } from '../config.ts'
import { keepFilesPrivate } from '../security/private-files.ts'
import {
  assertPgliteClosed,
  BACKUP_FORMAT,
  BackupError,
  pgliteDir,
  pgliteExtensions,
  pgConnection,
  PGLITE_DUMP,
  POSTGRES_DUMP,
  run,
  type Spawn,
  uploadsDir,
  type BackupConfig,
  type BackupManifest,
} from './backup.ts'

// `npm run restore -- FILE.tar.gz [--force]`: puts a backup from `npm run backup` back, database and
// uploads. Stop every server first. The replaced embedded database and uploads folder are kept beside
// them as pg.before-restore-<time> and uploads.before-restore-<time> until you delete them.
// Exit codes: 0 restored, 1 failed (the data as it was), 2 wrong command line.

export type RestoreResult = BackupManifest & { keptAside: string[] }

function readManifest(dir: string): BackupManifest {
  const path = join(dir, 'manifest.json')
  if (!existsSync(path)) throw new BackupError('Not a backup of this app: manifest.json is missing.')
  const manifest = JSON.parse(readFileSync(path, 'utf8')) as BackupManifest
  if (manifest.format !== BACKUP_FORMAT)
    throw new BackupError(`Backup format ${String(manifest.format)} is not supported (expected ${BACKUP_FORMAT}).`)
  return manifest
}

/**
 * Restores `file` into the configured database and DATA_DIR/uploads. The archive is unpacked and
 * checked first, the new embedded database is built beside the old one, and only then are the
 * folders swapped, so a failure on the way leaves the data as it was.
 */
export async function restoreBackup(
  config: BackupConfig,
  file: string,
  opts: { force?: boolean; now?: Date; spawn?: Spawn } = {},
): Promise<RestoreResult> {
  const archive = resolve(file)
  if (!existsSync(archive)) throw new BackupError(`No such file: ${archive}`)
  const stamp = (opts.now ?? new Date()).toISOString().replace(/[:.]/g, '-')
  mkdirSync(config.dataDir, { recursive: true })
  // Unpacked inside DATA_DIR, so the final swaps are renames on one file system.
  const work = mkdtempSync(join(config.dataDir, '.restore-'))
  const keptAside: string[] = []
  let releaseOwner = () => {}
  try {
    await run('tar', ['-xzf', archive, '-C', work], { spawn: opts.spawn })
    const manifest = readManifest(work)
    const target = config.databaseUrl ? 'postgres' : 'pglite'
    if (manifest.database !== target) {
      throw new BackupError(
        `This backup holds a ${manifest.database} database but the server is configured for ${target} (DATABASE_URL).`,
      )
    }

    if (config.databaseUrl) {
      // One transaction: a failed restore leaves the database as it was.
      const { dbname, env } = pgConnection(config.databaseUrl)
      await run(
        'pg_restore',
        [
          '--clean',
          '--if-exists',
          '--no-owner',
          '--no-privileges',
          '--single-transaction',
          '--exit-on-error',
          `--dbname=${dbname}`,
          join(work, POSTGRES_DUMP),
        ],
        { env, spawn: opts.spawn },
      )
    } else {
      assertPgliteClosed(config, opts.force ?? false)
      // A running server holds the folder's owner lock even when --force passes the check above.
      let owner: ReturnType<typeof claimEmbeddedDatabase>
      try {
        owner = claimEmbeddedDatabase(pgliteDir(config))
      } catch (err) {
        if (err instanceof DatabaseInUseError) throw new BackupError(err.message)
        throw err
      }
      releaseOwner = owner.release
      const fresh = join(work, 'pg')
      const dump = new Blob([readFileSync(join(work, PGLITE_DUMP))])
      const pg = await PGlite.create(fresh, { extensions: pgliteExtensions, loadDataDir: dump })
      try {
        await pg.query('select 1')
      } finally {
        await pg.close()
      }
      const current = pgliteDir(config)
      if (existsSync(current)) {
        renameSync(current, `${current}.before-restore-${stamp}`)
        keptAside.push(`${current}.before-restore-${stamp}`)
      }
      renameSync(fresh, current)
    }

    const uploads = uploadsDir(config)
    if (existsSync(uploads)) {
      renameSync(uploads, `${uploads}.before-restore-${stamp}`)
      keptAside.push(`${uploads}.before-restore-${stamp}`)
    }
    if (existsSync(join(work, 'uploads'))) renameSync(join(work, 'uploads'), uploads)
    return { ...manifest, keptAside }
  } finally {
    releaseOwner()
    rmSync(work, { recursive: true, force: true })
  }
}

async function main(argv: string[]): Promise<number> {
  const usage = 'Usage: npm run restore -- FILE.tar.gz [--force]'
  const files = argv.filter((a) => !a.startsWith('--'))
  const flags = argv.filter((a) => a.startsWith('--'))
  if (flags.includes('--help')) {
    process.stdout.write(`${usage}\nSee docs/operations.md\n`)
    return 0
  }
  const unknown = flags.find((f) => f !== '--force')
  if (files.length !== 1 || unknown) {
    process.stderr.write(`${unknown ? `Unknown argument ${unknown}\n` : ''}${usage}\n`)
    return 2
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
    const done = await restoreBackup(config, files[0]!, { force: flags.includes('--force') })
    process.stdout.write(
      `Restored the backup of ${done.created_at}: ${done.database} database, ${done.uploads} upload files.\n`,
    )
    for (const path of done.keptAside)
      process.stdout.write(`The replaced data is kept in ${path}; delete it once the restore is checked.\n`)
    return 0
  } catch (err) {
    if (!(err instanceof BackupError)) throw err
    process.stderr.write(`Restore failed, data unchanged: ${err.message}\n`)
    return 1
  }
}

if (import.meta.main) {
  keepFilesPrivate()
  process.exit(await main(process.argv.slice(2)))
}
