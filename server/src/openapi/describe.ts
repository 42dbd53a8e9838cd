import type { MiddlewareHandler } from 'hono'
import { describeRoute, resolver } from 'hono-openapi'
import type { z } from 'zod/mini'
import { codeStatus, successSchema, type MetaCode } from '#core/contract/envelope.ts'

/** How an endpoint answers: the envelope around `data`, or a body of its own (tiles, TileJSON, builds). */
export type Answer =
  | { envelope: z.core.$ZodType }
  | { json: z.core.$ZodType }
  /** `empty`: when the endpoint answers 204, and why. */
  | { binary: string; empty?: string }

export type Tag = 'auth' | 'lookups' | 'uploads' | 'tiles' | 'system'

export type Endpoint = {
  summary: string
  tag: Tag
  /** Needs `Authorization: Bearer <access_token>`. */
  bearer?: boolean
  /** Counted against the daily lookup limit (meta.usage on the answer). */
  counted?: boolean
  /** Answers 201 Created instead of 200. */
  created?: boolean
  /** Path parameters whose schema is not a validator's: name → what it holds. */
  pathParams?: Record<string, string>
  /** A request body no validator reads (multipart uploads), as OpenAPI content. */
  body?: Record<string, { schema: Record<string, unknown> }>
  answer: Answer
  /** Envelope codes this route answers besides Ok (InternalServerError and ServiceUnavailable are added). */
  codes: MetaCode[]
  /** Served from the built files: it reads no database and answers no envelope. */
  fromFiles?: boolean
}

/**
 * A path segment's pattern, `[^\x2f]` for "not a slash": the OpenAPI generator splits route paths on '/'
 * (hono-openapi's toOpenAPIPath), so a literal slash inside a pattern would cut the parameter in two.
 */
export const SEGMENT = '[^\\x2f]'

/** The path parameters of a tile's address besides its file name. */
export const tileAddress = { z: 'Mức phóng (zoom)', x: 'Cột ô' }

/** Answers the server may give on any route: something unexpected, or the database out of reach. */
const EVERY_ROUTE: MetaCode[] = ['InternalServerError', 'ServiceUnavailable']

/** Answers are documented as the server writes them; requests as a client sends them. */
const asAnswer = (schema: z.core.$ZodType) => resolver(schema, { options: { io: 'output' } })

function okResponses(e: Endpoint) {
  const a = e.answer
  const content =
    'envelope' in a
      ? { 'application/json': { schema: asAnswer(successSchema(a.envelope)) } }
      : 'json' in a
        ? { 'application/json': { schema: asAnswer(a.json) } }
        : { [a.binary]: { schema: { type: 'string' as const, contentEncoding: 'binary' } } }
  return {
    [e.created ? 201 : 200]: {
      description: e.counted ? 'Thành công (tính một lượt; meta.usage cho biết số lượt)' : 'Thành công',
      content,
    },
    ...('binary' in a && a.empty ? { 204: { description: a.empty } } : {}),
  }
}

function failureResponses(codes: MetaCode[]) {
  const byStatus = new Map<number, MetaCode[]>()
  for (const code of [...codes, ...EVERY_ROUTE])
    byStatus.set(codeStatus[code], [...(byStatus.get(codeStatus[code]) ?? []), code])
  const failure = { $ref: '#/components/schemas/Failure' }
  return Object.fromEntries(
    [...byStatus].map(([status, list]) => [
      status,
      { description: list.join(', '), content: { 'application/json': { schema: failure } } },
    ]),
  )
}

/**
 * The route's description in the OpenAPI document, given where the route is declared: a middleware that
 * does nothing at run time and carries the description (and the answer's zod schema) for the generator.
 * The request's schemas come from the validators beside it (`query`, `json` in http/validate.ts).
 */
export function endpoint(e: Endpoint): MiddlewareHandler {
  return describeRoute({
    summary: e.summary,
    tags: [e.tag],
    ...(e.bearer ? { security: [{ bearer: [] }] } : {}),
    ...(e.counted ? { 'x-counted': true } : {}),
    parameters: Object.entries(e.pathParams ?? {}).map(([name, description]) => ({
      name,
      in: 'path',
      required: true,
      description,
      schema: { type: 'string' },
    })),
    ...(e.body ? { requestBody: { required: true, content: e.body } } : {}),
    responses: { ...okResponses(e), ...(e.fromFiles ? {} : failureResponses(e.codes)) },
  })
}
