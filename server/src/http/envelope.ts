import type { Context } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { codeStatus, type MetaCode, type Usage } from '#core/contract/envelope.ts'
import { codeMessages } from '#core/messages.ts'

export function ok<T>(c: Context, data: T, opts: { message?: string; status?: 200 | 201; usage?: Usage } = {}) {
  const meta = opts.usage ? { code: 'Ok', status: 'OK', usage: opts.usage } : { code: 'Ok', status: 'OK' }
  return c.json({ message: opts.message ?? 'Thành công.', meta, data }, opts.status ?? 200)
}

export function failBody(code: Exclude<MetaCode, 'Ok'>, message?: string, errors?: Record<string, string[]> | string, usage?: Usage) {
  return {
    message: message ?? codeMessages[code],
    meta: usage ? { code, status: 'NG' as const, usage } : { code, status: 'NG' as const },
    ...(errors === undefined ? {} : { errors }),
    data: null,
  }
}

export function fail(
  c: Context,
  code: Exclude<MetaCode, 'Ok'>,
  message?: string,
  opts: { errors?: Record<string, string[]> | string; headers?: Record<string, string>; usage?: Usage } = {},
) {
  for (const [k, v] of Object.entries(opts.headers ?? {})) c.header(k, v)
  return c.json(failBody(code, message, opts.errors, opts.usage), codeStatus[code] as ContentfulStatusCode)
}
