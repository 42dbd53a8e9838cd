import { describe, expect, it } from 'vitest'
import { z } from 'zod/mini'
import { fetchJson } from './fetch-json.ts'

const schema = z.object({ id: z.string() })
const answer = (body: unknown, init?: ResponseInit, url?: string) => async () => {
  const res = new Response(JSON.stringify(body), init)
  if (url) Object.defineProperty(res, 'url', { value: url })
  return res
}

describe('reading a public JSON document', () => {
  it('gives the document checked against its schema and the address that answered', async () => {
    const got = await fetchJson('/x.json', schema, undefined, answer({ id: 'a' }, {}, 'http://h:3000/x.json'))
    expect(got).toEqual({ data: { id: 'a' }, from: 'http://h:3000/x.json' })
  })

  it('fails on a status that is not 2xx, naming it, and on a document its schema refuses', async () => {
    await expect(fetchJson('/x.json', schema, undefined, answer({ id: 'a' }, { status: 503 }))).rejects.toThrow(
      'HTTP 503',
    )
    await expect(fetchJson('/x.json', schema, undefined, answer({ id: 1 }))).rejects.toThrow()
  })

  it('reads a stand-in answer without an address against the page', async () => {
    expect((await fetchJson('/x.json', schema, undefined, answer({ id: 'a' }))).from).toBe(location.href)
  })
})
