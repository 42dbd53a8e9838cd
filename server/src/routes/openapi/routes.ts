import { Hono } from 'hono'
import { z } from 'zod/mini'
import type { AppEnv } from '../../deps.ts'
import { endpoint } from '../../openapi/describe.ts'
import { docsPage } from '../../openapi/docs-page.ts'
import { openApiDocument } from '../../openapi/document.ts'

/**
 * GET /api/openapi.json and GET /api/docs: the interface read off `app`'s routes and the schemas they
 * validate with. Both are the same for the life of the process: made on the first request (every route is
 * registered by then), then served as bytes.
 */
export function openApiRoutes(app: Hono<AppEnv>) {
  let made: Promise<{ document: string; page: string }> | undefined
  const make = () =>
    (made ??= openApiDocument(app).then((doc) => ({ document: JSON.stringify(doc), page: docsPage(doc) })))
  return new Hono<AppEnv>()
    .get(
      '/openapi.json',
      endpoint({
        summary: 'Tài liệu OpenAPI 3.1 này',
        tag: 'system',
        answer: { json: z.looseObject({ openapi: z.string() }) },
        codes: [],
      }),
      async (c) =>
        c.body((await make()).document, 200, {
          'Content-Type': 'application/json; charset=utf-8',
          'Cache-Control': 'no-cache',
        }),
    )
    .get(
      '/docs',
      endpoint({ summary: 'Tài liệu API dạng trang HTML', tag: 'system', answer: { binary: 'text/html' }, codes: [] }),
      async (c) => c.html((await make()).page, 200, { 'Cache-Control': 'no-cache' }),
    )
}
