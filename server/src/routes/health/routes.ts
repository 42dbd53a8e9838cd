import { Hono } from 'hono'
import type { AppEnv, Deps } from '../../deps.ts'
import { ok } from '../../http/envelope.ts'
import { endpoint } from '../../openapi/describe.ts'
import { healthData } from '#core/contract/system.ts'
import { version } from '../../version.ts'

export function healthRoutes({ db }: Deps) {
  return new Hono<AppEnv>().get(
    '/health',
    endpoint({
      summary: 'Tình trạng máy chủ và cơ sở dữ liệu',
      tag: 'system',
      answer: { envelope: healthData },
      codes: [],
    }),
    async (c) => {
      await db.ping()
      return ok(c, { status: 'ok' as const, db: 'ok' as const, version })
    },
  )
}
