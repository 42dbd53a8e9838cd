import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launch, phone, startApp, type Browser, type RunningApp } from './harness.ts'

/** Records every CSP violation the page reports, from before its first script runs. */
async function watchCsp(b: Browser): Promise<() => Promise<string[]>> {
  await b.context.addInitScript(() => {
    const seen: string[] = ((window as unknown as { __csp: string[] }).__csp = [])
    document.addEventListener('securitypolicyviolation', (e) =>
      seen.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`),
    )
  })
  return async () => [
    ...(await b.page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? [])),
    ...b.consoleErrors.filter((m) => /Content Security Policy/i.test(m)),
  ]
}

describe('the built app under its Content-Security-Policy', () => {
  let app: RunningApp
  beforeAll(async () => {
    app = await startApp()
  })
  afterAll(async () => {
    await app?.stop()
  })

  it.each(['/', '/demo', '/valuation'])(
    'loads %s with the map, workers and service worker and no CSP violation',
    async (path) => {
      const b = await launch(phone)
      try {
        const violations = await watchCsp(b)
        const res = await b.page.goto(app.url + path, { waitUntil: 'load' })
        expect(res?.headers()['content-security-policy']).toMatch(/script-src 'self'( 'sha256-[A-Za-z0-9+/=]+')*;/)
        await expect
          .poll(() => b.page.locator('#root').innerText(), { timeout: 20_000 })
          .not.toMatch(/Đang tải Quy hoạch VN/)
        await b.page.waitForLoadState('networkidle')
        // The map draws into canvases fed by vector tiles (connect-src) and OpenLayers' workers (worker-src).
        if (path === '/demo')
          await expect.poll(() => b.page.locator('canvas').count(), { timeout: 20_000 }).toBeGreaterThan(0)
        // The service worker registers and takes control under the same policy.
        expect(await b.page.evaluate(() => navigator.serviceWorker.ready.then((r) => Boolean(r.active)))).toBe(true)
        expect(await violations()).toEqual([])
      } finally {
        await b.close()
      }
    },
  )

  it('blocks a script injected into the page, so the policy really is in force', async () => {
    const b = await launch()
    try {
      const violations = await watchCsp(b)
      await b.page.goto(app.url, { waitUntil: 'load' })
      const ran = await b.page.evaluate(async () => {
        const s = document.createElement('script')
        s.textContent = 'window.__injected = true'
        document.head.append(s)
        const img = document.createElement('img')
        img.src = 'https://tracker.example.com/pixel.gif'
        document.body.append(img)
        await new Promise((r) => setTimeout(r, 200))
        return (window as unknown as { __injected?: boolean }).__injected === true
      })
      expect(ran).toBe(false)
      const seen = await violations()
      expect(seen.some((v) => v.startsWith('script-src'))).toBe(true)
      expect(seen.some((v) => v.startsWith('img-src') && v.includes('tracker.example.com'))).toBe(true)
    } finally {
      await b.close()
    }
  })
})
