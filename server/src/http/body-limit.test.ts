import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { limitBody } from './body-limit.ts'

const app = new Hono()
  .use(
    '*',
    limitBody(1000, (c) => c.json({ refused: true }, 413)),
  )
  .post('/echo', async (c) => c.json(await c.req.json()))
  .get('/echo', (c) => c.json({ got: true }))

const streamOf = (bytes: Uint8Array) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      for (let i = 0; i < bytes.length; i += 256) controller.enqueue(bytes.subarray(i, i + 256))
      controller.close()
    },
  })
const json = (n: number) => new TextEncoder().encode(JSON.stringify({ text: 'x'.repeat(n) }))

describe('the JSON body limit', () => {
  it('refuses a body whose declared length is over the limit, and passes one within it', async () => {
    const over = await app.request('/echo', {
      method: 'POST',
      body: json(2000),
      headers: { 'content-type': 'application/json' },
    })
    expect(over.status).toBe(413)
    const within = await app.request('/echo', {
      method: 'POST',
      body: json(100),
      headers: { 'content-type': 'application/json' },
    })
    expect(await within.json()).toEqual({ text: 'x'.repeat(100) })
  })

  it('counts a body sent without a length as it arrives, refusing it past the limit', async () => {
    const send = (bytes: Uint8Array) =>
      app.request('/echo', {
        method: 'POST',
        body: streamOf(bytes),
        headers: { 'content-type': 'application/json' },
        duplex: 'half',
      } as RequestInit)
    expect((await send(json(2000))).status).toBe(413)
    const within = await send(json(100))
    expect(within.status).toBe(200)
    expect(await within.json()).toEqual({ text: 'x'.repeat(100) })
  })

  it('lets a GET through', async () => {
    expect(await (await app.request('/echo')).json()).toEqual({ got: true })
  })
})
