import { ConfigError, loadConfig } from './config.ts'
import { keepFilesPrivate } from './security/private-files.ts'
import { DatabaseStartError, startServer } from './server.ts'

keepFilesPrivate()

try {
  const running = await startServer(loadConfig())
  process.stdout.write(`Quy hoạch VN đang chạy: ${running.url}\n`)
  let stopping = false
  const stop = (signal: string) => {
    if (stopping) return
    stopping = true
    running.logger.info('shutting down', { signal })
    // Drain open requests, then close the database so PGlite flushes to disk.
    running.close().then(
      () => process.exit(0),
      () => process.exit(1),
    )
    setTimeout(() => process.exit(1), 10_000).unref()
  }
  process.on('SIGTERM', () => stop('SIGTERM'))
  process.on('SIGINT', () => stop('SIGINT'))
} catch (err) {
  if (err instanceof DatabaseStartError) {
    process.stderr.write(`${err.message}\n`)
    process.exit(1)
  }
  if (err instanceof ConfigError) {
    process.stderr.write(`${err.message}\n`)
    process.exit(2)
  }
  throw err
}
