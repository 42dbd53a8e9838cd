import { z } from 'zod/mini'

// The app runs under a Content-Security-Policy without 'unsafe-eval': zod's compiled parsers would probe
// `Function('')` on first use and the browser would report a CSP violation. Every side imports this
// module before it parses anything, and plain parsing is fast enough for payloads this small.
z.config({ jitless: true })

/** Contract version 1 — docs/api.md. */
export const CONTRACT_VERSION = 1

export const codeStatus = {
  Ok: 200,
  BadRequest: 400,
  LocationIncorrect: 400,
  Unauthorized: 401,
  Forbidden: 403,
  NotFound: 404,
  Conflict: 409,
  MaxFile: 413,
  UnsupportedMedia: 415,
  MaxUsage: 429,
  TooManyRequests: 429,
  InternalServerError: 500,
  ServiceUnavailable: 503,
} as const

export type MetaCode = keyof typeof codeStatus
export const metaCodes = Object.keys(codeStatus) as [MetaCode, ...MetaCode[]]

export const usageSchema = z.object({ count: z.int(), limit: z.int() })
export type Usage = z.infer<typeof usageSchema>

export const metaSchema = z.object({
  code: z.string(),
  status: z.enum(['OK', 'NG']),
  usage: z.optional(usageSchema),
})

export const fieldErrorsSchema = z.record(z.string(), z.array(z.string()))

export const failureSchema = z.object({
  message: z.string(),
  meta: metaSchema,
  errors: z.optional(z.union([fieldErrorsSchema, z.string()])),
  data: z.optional(z.nullable(z.object({ error: z.string() }))),
})
export type Failure = z.infer<typeof failureSchema>

export function successSchema<T extends z.core.$ZodType>(data: T) {
  return z.object({ message: z.string(), meta: metaSchema, data })
}

export type Success<T> = { message: string; meta: z.infer<typeof metaSchema>; data: T }
