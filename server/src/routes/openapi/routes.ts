import { Hono } from 'hono'
import type { AppEnv } from '../../deps.ts'
import { docsPage } from '../../openapi/docs-page.ts'
import { openApiDocument } from '../../openapi/document.ts'

/** GET /api/openapi.json and GET /api/docs: the interface described from the schemas the server validates with. */
export function openApiRoutes() {
  // Both are the same for the life of the process: built once, served as bytes.
  const document = JSON.stringify(openApiDocument())
  const page = docsPage()
  return new Hono<AppEnv>()
    .get('/openapi.json', (c) => c.body(document, 200, { 'Content-Type': 'application/json; charset=utf-8' }))
    .get('/docs', (c) => c.html(page))
}
