import type { OpenApiDocument } from './document.ts'

type Operation = NonNullable<NonNullable<OpenApiDocument['paths']>[string]>['get'] & { 'x-counted'?: boolean }

const escape = (s: string) =>
  s.replace(/[&<>"]/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[ch]!)

/** Failures every API route may answer, said once above the table instead of on every row. */
const EVERY_ROUTE = new Set(['500', '503'])

function row(method: string, path: string, op: NonNullable<Operation>): string {
  const flags = [op.security ? 'Bearer' : 'công khai', op['x-counted'] ? 'tính lượt' : ''].filter(Boolean).join(', ')
  const codes = Object.entries(op.responses ?? {})
    .filter(([status]) => Number(status) >= 400 && !EVERY_ROUTE.has(status))
    .map(([, response]) => ('description' in response ? response.description : ''))
    .join(', ')
  return `<tr><td><code>${method.toUpperCase()}</code></td><td><code>${escape(path)}</code></td><td>${escape(op.summary ?? '')}</td><td>${flags}</td><td>${escape(codes || '—')}</td></tr>`
}

/**
 * The API reference as one plain HTML page, read off the OpenAPI document: no script and no inline style, so
 * it passes the site's Content-Security-Policy as it is. The schemas themselves are in /api/openapi.json.
 */
export function docsPage(doc: OpenApiDocument): string {
  const rows = Object.entries(doc.paths ?? {})
    .flatMap(([path, ops]) =>
      Object.entries(ops ?? {}).map(([method, op]) => row(method, path, op as NonNullable<Operation>)),
    )
    .join('\n')
  return `<!doctype html>
<html lang="vi">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API — Tra cứu quy hoạch và định giá đất</title>
</head>
<body>
<main>
<h1>API tra cứu quy hoạch và định giá đất</h1>
<p>Tài liệu máy đọc được (OpenAPI 3.1): <a href="/api/openapi.json">/api/openapi.json</a>.
Mọi câu trả lời dưới <code>/api/</code> là phong bì JSON <code>{ message, meta: { code, status }, data }</code>.
Các lỗi chung <code>InternalServerError</code> (500) và <code>ServiceUnavailable</code> (503, có <code>Retry-After</code>) có thể xảy ra ở mọi đường dẫn API.</p>
<table>
<caption>Các đường dẫn</caption>
<thead><tr><th scope="col">Phương thức</th><th scope="col">Đường dẫn</th><th scope="col">Mô tả</th><th scope="col">Quyền</th><th scope="col">Mã lỗi riêng</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>
</main>
</body>
</html>
`
}
