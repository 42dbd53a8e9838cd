import type { Context } from 'hono'
import type { z } from 'zod'
import { ApiError } from './errors.ts'

/** zod issues → the contract's `errors` object: field name → Vietnamese messages. */
export function fieldErrors(error: z.ZodError): Record<string, string[]> {
  const out: Record<string, string[]> = {}
  for (const issue of error.issues) {
    const key = issue.path.length > 0 ? issue.path.join('.') : '_'
    ;(out[key] ??= []).push(issue.message)
  }
  return out
}

export function parseOr400<S extends z.ZodType>(schema: S, input: unknown, code: 'BadRequest' | 'LocationIncorrect' = 'BadRequest'): z.infer<S> {
  const parsed = schema.safeParse(input)
  if (!parsed.success) throw new ApiError(code, undefined, { errors: fieldErrors(parsed.error) })
  return parsed.data
}

/** JSON body, answering 400 for malformed JSON and for non-JSON content types. */
export async function jsonBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.infer<S>> {
  const type = c.req.header('content-type') ?? ''
  if (!/^application\/json\b/i.test(type)) {
    throw new ApiError('BadRequest', 'Nội dung phải là JSON (Content-Type: application/json).')
  }
  let body: unknown
  try {
    body = await c.req.json()
  } catch {
    throw new ApiError('BadRequest', 'JSON không hợp lệ.')
  }
  return parseOr400(schema, body)
}

export function queryOf<S extends z.ZodType>(c: Context, schema: S, code: 'BadRequest' | 'LocationIncorrect' = 'BadRequest'): z.infer<S> {
  return parseOr400(schema, c.req.query(), code)
}
