import { Hono } from 'hono'
import type { AppEnv, Deps } from '../../deps.ts'
import { ok } from '../../http/envelope.ts'
import { version } from '../../version.ts'

export function healthRoutes({ db }: Deps) {
  return new Hono<AppEnv>().get('/health', async (c) => {
    await db.ping()
    return ok(c, { status: 'ok' as const, db: 'ok' as const, version })
  })
}
