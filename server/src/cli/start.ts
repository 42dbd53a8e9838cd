import { buildApp } from './build.ts'

// `npm start`: build the front end only when its sources changed, then run the server in this process.
try {
  buildApp()
} catch (err) {
  process.stderr.write(`${(err as Error).message}\n`)
  process.exit(1)
}
await import('../main.ts')
