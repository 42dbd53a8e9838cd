import { readFileSync } from 'node:fs'
import { join } from 'node:path'

export const version: string = (
  JSON.parse(readFileSync(join(import.meta.dirname, '../../package.json'), 'utf8')) as { version: string }
).version
