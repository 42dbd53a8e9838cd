/** Whether an Accept-Encoding header takes gzip, with its q-values. */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false
  const q = new Map<string, number>()
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';')
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='))
    q.set(name.trim(), qParam === undefined ? 1 : Number(qParam.slice(2)))
  }
  // An explicit gzip entry wins over the wildcard ("gzip;q=0, *" refuses gzip).
  const weight = q.get('gzip') ?? q.get('x-gzip') ?? q.get('*') ?? 0
  return weight > 0
}
