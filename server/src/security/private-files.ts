/**
 * Files the server writes (the embedded database, photos, backups, the mail outbox) hold accounts,
 * photos and reset codes: readable by the server's own user only. The umask makes that the default
 * for every file and folder the process creates, PGlite's and tar's included; the writers that matter
 * also pass these modes explicitly, so it holds where the umask is not set (tests, embedding).
 */
export const PRIVATE_FILE = 0o600
export const PRIVATE_DIR = 0o700

/** Called first by every entry point that writes data (the server and the backup, restore, import CLIs). */
export function keepFilesPrivate(): void {
  process.umask(0o077)
}
