/**
 * A public JSON document (no envelope, so not through the API client and never the loading bar), read
 * and checked against its schema. A status other than 2xx throws `HTTP {status}`; `from` is the address
 * that answered (after redirects; a test's stand-in answer has none, so the page's), against which the
 * document's relative URLs are read.
 */
export async function fetchJson<T>(
  url: string,
  schema: { parse(value: unknown): T },
  init?: RequestInit,
  fetchImpl: (input: string, init?: RequestInit) => Promise<Response> = (input, i) => fetch(input, i),
): Promise<{ data: T; from: string }> {
  const res = await fetchImpl(url, init)
  if (!res.ok) throw new Error(`HTTP ${res.status}`)
  return { data: schema.parse(await res.json()), from: res.url || location.href }
}
