import type { Context } from 'hono'

/**
 * An answer kept as its parts: status, finished body, and headers as a plain object with lower-case
 * names (as a Headers object would send them). The middlewares that add to an answer (gzip, security
 * headers, request id) rebuild it from these parts, and @hono/node-server writes a response built
 * this way with one `writeHead` and one `end`: no WHATWG Headers object, no body read back as a
 * stream. On the lookups' load, that machinery (a Headers object validating each header set on it,
 * hono copying headers and re-reading the body whenever a middleware replaced the answer, the
 * adapter streaming it out) cost more server CPU per request than the lookup's own JavaScript.
 */
export type AnswerParts = {
  status: number
  body: string | Uint8Array<ArrayBuffer> | null
  headers: Readonly<Record<string, string>>
}

const partsOf = new WeakMap<Response, AnswerParts>()

export function plainAnswer(parts: AnswerParts): Response {
  const res = new Response(parts.body, { status: parts.status, headers: parts.headers })
  partsOf.set(res, parts)
  return res
}

/** The parts of the current answer, when it was built by plainAnswer. */
export function answerParts(c: Context): AnswerParts | undefined {
  return partsOf.get(c.res)
}

/**
 * Makes an answer built from `parts` the current one. Assigning `c.res` over an existing answer makes
 * hono copy the old answer's headers into the new one, which reads the new body as a stream; these
 * parts already hold every header, so the old answer is let go first.
 */
export function replaceAnswer(c: Context, parts: AnswerParts): void {
  c.res = undefined
  c.res = plainAnswer(parts)
}

/**
 * Sets headers (lower-case names) on the current answer; a `vary` value is added to the answer's own
 * Vary. Every middleware that adds headers goes through here, so they are written the same way
 * whatever made the answer: rebuilt from its parts, or set on its Headers (tiles, the app, files).
 */
export function addHeaders(c: Context, headers: Readonly<Record<string, string>>): void {
  const parts = answerParts(c)
  if (parts) {
    const merged = { ...parts.headers, ...headers }
    if (headers.vary !== undefined && parts.headers.vary !== undefined)
      merged.vary = `${parts.headers.vary}, ${headers.vary}`
    replaceAnswer(c, { ...parts, headers: merged })
    return
  }
  const h = c.res.headers
  for (const [name, value] of Object.entries(headers)) {
    if (name === 'vary') h.append(name, value)
    else h.set(name, value)
  }
}
