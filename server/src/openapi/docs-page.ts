import { routeSpecs } from './routes-spec.ts'

const escape = (s: string) =>
  s.replace(/[&<>"]/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[ch]!)

/**
 * The API reference as one plain HTML page: no script and no inline style, so it passes the site's
 * Content-Security-Policy as it is. The schemas themselves are in /api/openapi.json, linked from it.
 */
export function docsPage(): string {
  const rows = routeSpecs
    .map((r) => {
      const flags = [r.bearer ? 'Bearer' : 'công khai', r.counted ? 'tính lượt' : ''].filter(Boolean).join(', ')
      const codes = r.codes.length > 0 ? r.codes.join(', ') : '—'
      return `<tr><td><code>${r.method.toUpperCase()}</code></td><td><code>${escape(r.path)}</code></td><td>${escape(r.summary)}</td><td>${flags}</td><td>${escape(codes)}</td></tr>`
    })
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
