import type { Context, MiddlewareHandler } from 'hono'
import { createMiddleware } from 'hono/factory'
import { resolver, uniqueSymbol } from 'hono-openapi'
import { config, safeParse, type z } from 'zod/mini'
import { en } from 'zod/locales'
import type { AppEnv } from '../deps.ts'
import { ApiError } from './errors.ts'

// zod/mini carries no locale: issues the contract gives no text of its own (a bound without a message, a
// wrong type) keep the English messages clients have always received.
config(en())

/** zod issues → the contract's `errors` object: field name → Vietnamese messages. */
export function fieldErrors(error: z.core.$ZodError): Record<string, string[]> {
  const out: Record<string, string[]> = {}
  for (const issue of error.issues) {
    const key = issue.path.length > 0 ? issue.path.join('.') : '_'
    ;(out[key] ??= []).push(issue.message)
  }
  return out
}

export function parseOr400<S extends z.core.$ZodType>(
  schema: S,
  input: unknown,
  code: 'BadRequest' | 'LocationIncorrect' = 'BadRequest',
): z.infer<S> {
  const parsed = safeParse(schema, input)
  if (!parsed.success) throw new ApiError(code, undefined, { errors: fieldErrors(parsed.error) })
  return parsed.data
}

/** Time a JSON body (at most BODY_LIMIT_KB) may take to arrive, well inside REQUEST_TIMEOUT_SECONDS' default. */
export const JSON_BODY_TIMEOUT_MS = 30_000

/**
 * JSON body, answering 400 for malformed JSON, for non-JSON content types, and for a body still not
 * arrived after JSON_BODY_TIMEOUT_MS (with `Connection: close`: a trickling client gets its answer and
 * the connection ends after it).
 */
export async function jsonBody<S extends z.core.$ZodType>(
  c: Context,
  schema: S,
  timeoutMs = JSON_BODY_TIMEOUT_MS,
): Promise<z.infer<S>> {
  const type = c.req.header('content-type') ?? ''
  if (!/^application\/json\b/i.test(type)) {
    throw new ApiError('BadRequest', 'Nội dung phải là JSON (Content-Type: application/json).')
  }
  let timer: NodeJS.Timeout | undefined
  const tooSlow = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new ApiError('BadRequest', 'Gửi dữ liệu quá lâu, vui lòng thử lại khi mạng ổn định hơn.', {
            headers: { Connection: 'close' },
          }),
        ),
      timeoutMs,
    )
  })
  let body: unknown
  try {
    body = await Promise.race([c.req.json(), tooSlow])
  } catch (err) {
    if (err instanceof ApiError) throw err
    throw new ApiError('BadRequest', 'JSON không hợp lệ.')
  } finally {
    clearTimeout(timer)
  }
  return parseOr400(schema, body)
}

/**
 * A hot route's check written out by hand: for input it can vouch for it answers exactly what `schema`
 * would, and undefined for anything else, which `schema` then checks and words the errors for. So the
 * schema stays the one rule and the source of every message; fast-paths.test.ts holds each one to it.
 */
export type FastPath<S extends z.core.$ZodType> = (query: Record<string, string>) => z.infer<S> | undefined

/** The query, validated by `fast` when given and it vouches for the input, otherwise by `schema`. */
export function queryOf<S extends z.core.$ZodType>(
  c: Context,
  schema: S,
  code: 'BadRequest' | 'LocationIncorrect' = 'BadRequest',
  fast?: FastPath<S>,
): z.infer<S> {
  const query = c.req.query()
  return fast?.(query) ?? parseOr400(schema, query, code)
}

/** What a validating middleware hands the handler, read with `c.req.valid(target)`. */
export type Validated<T extends 'query' | 'json', S extends z.core.$ZodType> = { out: { [K in T]: z.output<S> } }

/** Marks a validating middleware with the schema it checks, so the OpenAPI document describes that input. */
function documented<M extends object>(middleware: M, target: 'query' | 'json', schema: z.core.$ZodType): M {
  return Object.assign(middleware, { [uniqueSymbol]: { target, ...resolver(schema) } })
}

/**
 * The query checked by `schema` (or by `fast` when it vouches for it) before the handler runs, which reads
 * it with `c.req.valid('query')`; the OpenAPI document lists its parameters from the same schema.
 */
export function query<S extends z.core.$ZodType>(
  schema: S,
  code: 'BadRequest' | 'LocationIncorrect' = 'BadRequest',
  fast?: FastPath<S>,
): MiddlewareHandler<AppEnv, string, Validated<'query', S>> {
  return documented(
    createMiddleware<AppEnv, string, Validated<'query', S>>(async (c, next) => {
      c.req.addValidatedData('query', queryOf(c, schema, code, fast) as object)
      await next()
    }),
    'query',
    schema,
  )
}

/** The JSON body read and checked by `schema` (see jsonBody) before the handler runs: `c.req.valid('json')`. */
export function json<S extends z.core.$ZodType>(schema: S): MiddlewareHandler<AppEnv, string, Validated<'json', S>> {
  return documented(
    createMiddleware<AppEnv, string, Validated<'json', S>>(async (c, next) => {
      c.req.addValidatedData('json', (await jsonBody(c, schema)) as object)
      await next()
    }),
    'json',
    schema,
  )
}
