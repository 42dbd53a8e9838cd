import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launch, startApp, type RunningApp } from './harness.ts'

describe('the built app in Chromium', () => {
  let app: RunningApp
  beforeAll(async () => {
    app = await startApp()
  })
  afterAll(async () => {
    await app?.stop()
  })

  it('opens the first screen in Vietnamese without console errors', async () => {
    const b = await launch()
    try {
      await b.page.goto(app.url, { waitUntil: 'load' })
      await expect.poll(() => b.page.locator('#root').innerText(), { timeout: 20_000 }).toMatch(/quy hoạch/i)
      expect(await b.page.getAttribute('html', 'lang')).toBe('vi')
      await b.page.waitForTimeout(500)
      expect(b.consoleErrors).toEqual([])
    } finally {
      await b.close()
    }
  })

  it('answers the API health check from the same server', async () => {
    const res = await fetch(`${app.url}/api/health`)
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ data: { status: 'ok', db: 'ok' } })
  })
})
