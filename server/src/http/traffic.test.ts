import { describe, expect, it } from 'vitest'
import { listen } from './listen.ts'
import { createTraffic } from './traffic.ts'

const config = {
  publicUrl: 'http://localhost',
  trustProxy: false,
  tileUrl: undefined,
  corsOrigins: [],
  distDir: '/nonexistent',
}

describe('the requests in flight', () => {
  it('counts a request from its arrival until its answer has gone, and says when the last one ended', async () => {
    let arrived!: () => void
    const arriving = new Promise<void>((r) => (arrived = r))
    let answer!: (r: Response) => void
    const traffic = createTraffic()
    const served = await listen(
      () => {
        arrived()
        return new Promise<Response>((r) => (answer = r))
      },
      { port: 0, hostname: '127.0.0.1', config, traffic },
    )
    try {
      const asked = fetch(`http://127.0.0.1:${served.port}/api/health`)
      await arriving
      expect(traffic.inFlight()).toBe(1)
      const began = traffic.lastAt()
      answer(new Response('ok'))
      expect(await (await asked).text()).toBe('ok')
      await expect.poll(() => traffic.inFlight()).toBe(0)
      expect(traffic.lastAt()).toBeGreaterThanOrEqual(began)
    } finally {
      await served.close()
    }
  })

  it('counts each request once, however often its end is reported', () => {
    const traffic = createTraffic()
    const first = traffic.begin()
    traffic.begin()
    first()
    first()
    expect(traffic.inFlight()).toBe(1)
  })
})
