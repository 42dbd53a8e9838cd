import type { Context } from 'hono'
import { codeStatus, type MetaCode, type Usage } from '#core/contract/envelope.ts'
import { codeMessages } from '#core/messages.ts'
import { plainAnswer } from './answer.ts'

/**
 * The envelope as a finished answer, serialised once; the middlewares then add gzip and the edge
 * headers to its parts (answer.ts). Headers of the answer go in `headers`: one set with `c.header()`
 * would not reach it.
 */
function envelope(status: number, body: object, headers?: Record<string, string>): Response {
  const named: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' }
  for (const [k, v] of Object.entries(headers ?? {})) named[k.toLowerCase()] = v
  return plainAnswer({ status, body: JSON.stringify(body), headers: named })
}

export function ok<T>(_c: Context, data: T, opts: { message?: string; status?: 200 | 201; usage?: Usage } = {}) {
  const meta = opts.usage ? { code: 'Ok', status: 'OK', usage: opts.usage } : { code: 'Ok', status: 'OK' }
  return envelope(opts.status ?? 200, { message: opts.message ?? 'Thành công.', meta, data })
}

export function failBody(
  code: Exclude<MetaCode, 'Ok'>,
  message?: string,
  errors?: Record<string, string[]> | string,
  usage?: Usage,
) {
  return {
    message: message ?? codeMessages[code],
    meta: usage ? { code, status: 'NG' as const, usage } : { code, status: 'NG' as const },
    ...(errors === undefined ? {} : { errors }),
    data: null,
  }
}

export function fail(
  _c: Context,
  code: Exclude<MetaCode, 'Ok'>,
  message?: string,
  opts: { errors?: Record<string, string[]> | string; headers?: Record<string, string>; usage?: Usage } = {},
) {
  return envelope(codeStatus[code], failBody(code, message, opts.errors, opts.usage), opts.headers)
}
