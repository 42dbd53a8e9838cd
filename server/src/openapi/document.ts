import { z } from 'zod'
import { CONTRACT_VERSION, codeStatus, failureSchema, successSchema } from '#core/contract/envelope.ts'
import { version } from '../version.ts'
import { routeSpecs, type RouteSpec } from './routes-spec.ts'

type Json = Record<string, unknown>

/** JSON Schema 2020-12 (OpenAPI 3.1's dialect) of what a client sends or receives. */
function schemaOf(schema: z.core.$ZodType, io: 'input' | 'output'): Json {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
  }) as Json
  return rest
}

function parameters(spec: RouteSpec): Json[] {
  const inPath = Object.entries(spec.pathParams ?? {}).map(([name, description]) => ({
    name,
    in: 'path',
    required: true,
    description,
    schema: { type: 'string' },
  }))
  const query = spec.query
    ? (schemaOf(spec.query, 'input') as { properties?: Record<string, Json>; required?: string[] })
    : {}
  const inQuery = Object.entries(query.properties ?? {}).map(([name, schema]) => ({
    name,
    in: 'query',
    required: (query.required ?? []).includes(name),
    schema,
  }))
  return [...inPath, ...inQuery]
}

function okResponse(spec: RouteSpec): Json {
  const status = spec.path === '/api/auth/register' ? '201' : '200'
  const a = spec.answer
  const content =
    'envelope' in a
      ? { 'application/json': { schema: schemaOf(successSchema(a.envelope), 'output') } }
      : 'json' in a
        ? { 'application/json': { schema: schemaOf(a.json, 'output') } }
        : { [a.binary]: { schema: { type: 'string', contentEncoding: 'binary' } } }
  const extra =
    spec.path.startsWith('/tiles/') && 'binary' in a
      ? { '204': { description: 'Ô trống hoặc ngoài phạm vi dữ liệu' } }
      : {}
  return {
    [status]: {
      description: spec.counted ? 'Thành công (tính một lượt; meta.usage cho biết số lượt)' : 'Thành công',
      content,
    },
    ...extra,
  }
}

function failureResponses(spec: RouteSpec): Json {
  if (!spec.path.startsWith('/api/')) return {}
  const byStatus = new Map<number, string[]>()
  for (const code of [...spec.codes, 'InternalServerError', 'ServiceUnavailable']) {
    const status = codeStatus[code as keyof typeof codeStatus]
    byStatus.set(status, [...(byStatus.get(status) ?? []), code])
  }
  const failure = { $ref: '#/components/schemas/Failure' }
  return Object.fromEntries(
    [...byStatus].map(([status, codes]) => [
      String(status),
      { description: codes.join(', '), content: { 'application/json': { schema: failure } } },
    ]),
  )
}

function operation(spec: RouteSpec): Json {
  const body = spec.multipart
    ? {
        required: true,
        content: {
          'multipart/form-data': {
            schema: {
              type: 'object',
              properties: { images: { type: 'array', items: { type: 'string', contentEncoding: 'binary' } } },
              required: ['images'],
            },
          },
        },
      }
    : spec.body
      ? { required: true, content: { 'application/json': { schema: schemaOf(spec.body, 'input') } } }
      : undefined
  return {
    summary: spec.summary,
    tags: [spec.tag],
    operationId: `${spec.method}${spec.path.replace(/[^a-zA-Z0-9]+(.)?/g, (_m, ch: string | undefined) => (ch ?? '').toUpperCase())}`,
    ...(spec.bearer ? { security: [{ bearer: [] }] } : {}),
    parameters: parameters(spec),
    ...(body ? { requestBody: body } : {}),
    responses: { ...okResponse(spec), ...failureResponses(spec) },
  }
}

/** The OpenAPI 3.1 document of the whole HTTP interface, built once from the route list. */
export function openApiDocument(specs: RouteSpec[] = routeSpecs): Json {
  const paths: Record<string, Json> = {}
  for (const spec of specs) paths[spec.path] = { ...paths[spec.path], [spec.method]: operation(spec) }
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'Tra cứu quy hoạch và định giá đất',
      version,
      description: `Hợp đồng HTTP phiên bản ${CONTRACT_VERSION}. Mọi câu trả lời /api/* là phong bì JSON { message, meta: { code, status }, data }; xem docs/api.md.`,
    },
    tags: [{ name: 'auth' }, { name: 'lookups' }, { name: 'uploads' }, { name: 'tiles' }, { name: 'system' }],
    paths,
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'access_token từ POST /api/auth/login' },
      },
      schemas: { Failure: schemaOf(failureSchema, 'output') },
    },
  }
}
