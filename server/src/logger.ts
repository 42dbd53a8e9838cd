import type { Config } from './config.ts'

const levels = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const
type Level = Exclude<keyof typeof levels, 'silent'>

export type Logger = Record<Level, (msg: string, fields?: Record<string, unknown>) => void>

/** One JSON line per event, so logs from several processes can be merged and searched. */
export function createLogger(
  level: Config['logLevel'],
  write: (line: string) => void = (l) => process.stderr.write(l + '\n'),
): Logger {
  const min = levels[level]
  const log = (lvl: Level) => (msg: string, fields?: Record<string, unknown>) => {
    if (levels[lvl] < min) return
    write(JSON.stringify({ time: new Date().toISOString(), level: lvl, msg, ...fields }))
  }
  return { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') }
}
