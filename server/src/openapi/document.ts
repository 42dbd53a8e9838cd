import type { Hono } from 'hono'
import { generateSpecs, resolver } from 'hono-openapi'
import { CONTRACT_VERSION, failureSchema } from '#core/contract/envelope.ts'
import type { AppEnv } from '../deps.ts'
import { version } from '../version.ts'

export type OpenApiDocument = Awaited<ReturnType<typeof generateSpecs>>

/**
 * The OpenAPI 3.1 document of the whole HTTP interface, generated from the app's routes: each declares its
 * description (`endpoint`, openapi/describe.ts) and its validators (`query`, `json`, http/validate.ts) with
 * the zod schemas it runs, so a route and its description cannot drift apart.
 */
export async function openApiDocument(app: Hono<AppEnv>): Promise<OpenApiDocument> {
  const failure = await resolver(failureSchema, { options: { io: 'output' } }).toOpenAPISchema()
  return generateSpecs(app, {
    // Paths such as /api/openapi.json and /tiles/overlays.json are endpoints here, not files to leave out.
    excludeStaticFile: false,
    // Every route names its own failures in the envelope (describe.ts), validation's included.
    defaultValidationErrorResponse: false,
    documentation: {
      jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
      info: {
        title: 'Tra cứu quy hoạch và định giá đất',
        version,
        description: `Hợp đồng HTTP phiên bản ${CONTRACT_VERSION}. Mọi câu trả lời /api/* là phong bì JSON { message, meta: { code, status }, data }; xem docs/api.md.`,
      },
      tags: [{ name: 'auth' }, { name: 'lookups' }, { name: 'uploads' }, { name: 'tiles' }, { name: 'system' }],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'access_token từ POST /api/auth/login' },
        },
        schemas: { Failure: failure.schema },
      },
    },
  })
}
