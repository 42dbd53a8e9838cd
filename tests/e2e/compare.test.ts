import { mkdirSync } from 'node:fs'
import { resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { desktop, launch, mapReady, phone, startApp, type RunningApp } from './harness.ts'

/**
 * Plan versions against the real built server and its demo data, where the 2023 zoning plan replaced
 * the 2017 one: the card keeps the older plan as history and leads to "So sánh", which lists what
 * changed with areas and draws both plans; the layers panel compares the area on screen.
 */

const shots = resolve(import.meta.dirname, '../../out')
mkdirSync(shots, { recursive: true })
const PASSWORD = 'mat-khau-so-sanh-1'

type Compared = {
  comparison: { changes: { field: string; geometry: { type: string; coordinates: unknown } }[] } | null
}

let app: RunningApp
let session: Record<string, unknown>
/** A point where the 2017 zoning plan set fewer floors than the 2023 one, outside the detailed plan. */
let point: { lat: number; lng: number }

async function api<T>(
  path: string,
  init: { method?: string; json?: unknown; token?: string } = {},
): Promise<{ status: number; data: T }> {
  const res = await fetch(`${app.url}${path}`, {
    method: init.method ?? 'GET',
    headers: { 'Content-Type': 'application/json', ...(init.token ? { Authorization: `Bearer ${init.token}` } : {}) },
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  })
  return { status: res.status, data: ((await res.json()) as { data: T }).data }
}

beforeAll(async () => {
  app = await startApp()
  const email = `compare-${Date.now().toString(36)}@example.com`
  expect(
    (await api('/api/auth/register', { method: 'POST', json: { name: 'Người So Sánh', email, password: PASSWORD } }))
      .status,
  ).toBe(201)
  const login = await api<{ access_token: string; expires_at: string; name: string }>('/api/auth/login', {
    method: 'POST',
    json: { email, password: PASSWORD },
  })
  session = {
    userName: login.data.name,
    token: login.data.access_token,
    expiresAt: login.data.expires_at,
    isLogin: true,
    isOpenLogin: false,
  }
  // The east of the demo ward: the zoning plans only (the detailed plan covers its west).
  const bounds = (
    (await (await fetch(`${app.url}/tiles/planning.json`)).json()) as { bounds: [number, number, number, number] }
  ).bounds
  const [w, s, e, n] = bounds
  const box = [e - 0.008, (s + n) / 2 - 0.004, e - 0.001, (s + n) / 2 + 0.004].map((v) => v.toFixed(6)).join(',')
  const res = await api<Compared>(`/api/plans/compare?bbox=${box}`, { token: login.data.access_token })
  expect(res.status).toBe(200)
  const floors = res.data.comparison?.changes.find((c) => c.field === 'max_floors')
  expect(floors).toBeDefined()
  const g = floors!.geometry
  const ring = (
    g.type === 'MultiPolygon' ? (g.coordinates as number[][][][])[0]![0]! : (g.coordinates as number[][][])[0]!
  ) as [number, number][]
  // Zones are 2 × 2 blocks (rectangles) with streets between the blocks: a quarter of the way in from a
  // corner is the middle of one block, inside a parcel.
  const lngs = ring.map((c) => c[0])
  const lats = ring.map((c) => c[1])
  const [x0, x1, y0, y1] = [Math.min(...lngs), Math.max(...lngs), Math.min(...lats), Math.max(...lats)]
  point = { lng: x0 + (x1 - x0) / 4, lat: y0 + (y1 - y0) / 4 }
  expect(point.lng).toBeGreaterThan(w)
})

afterAll(async () => {
  await app?.stop()
})

describe('plan versions and "So sánh"', () => {
  it('shows the replaced 2017 plan as history on the card and compares it with the 2023 plan, on a phone', async () => {
    const b = await launch(phone)
    try {
      const { page } = b
      await b.context.addInitScript((s) => localStorage.setItem('qh.session', JSON.stringify(s)), session)
      await page.goto(`${app.url}/demo#/${point.lat}/${point.lng}/19/sel/${point.lat},${point.lng}`)
      await expect.poll(() => page.getByTestId('result-card').count(), { timeout: 30_000 }).toBe(1)
      const approval = await page.getByTestId('governing-approval').innerText()
      expect(approval).toContain('thay thế đồ án cùng cấp theo QĐ 2468/QĐ-UBND ngày 12/06/2017')
      await page.getByTestId('plan-history').locator('summary').click()
      expect(await page.getByTestId('plan-history').getByTestId('history-zone').first().innerText()).toContain(
        'Thay thế bởi QĐ 1234/QĐ-UBND ngày 15/09/2023',
      )

      await page.getByTestId('compare-plans').click()
      await expect.poll(() => page.getByTestId('compare-verdict').count(), { timeout: 30_000 }).toBe(1)
      expect(new URL(page.url()).pathname).toBe('/compare')
      expect(await page.getByTestId('compare-verdict').innerText()).toMatch(/^Thay đổi: .*tầng cao tối đa/)
      const groups = await page.getByTestId('compare-changes').locator('tbody').allInnerTexts()
      expect(
        groups.some((g) => /^Tầng cao tối đa/.test(g) && /\d+ tầng → \d+ tầng ↑/.test(g) && / (m²|ha)/.test(g)),
      ).toBe(true)
      // Both plans drawn, each with its coloured zones.
      expect(await page.locator('.qh-compare-figure').count()).toBe(2)
      expect(await page.locator('.qh-compare-piece').count()).toBeGreaterThanOrEqual(2)
      await page
        .getByTestId('compare-changes')
        .getByRole('button', { name: /tầng → .*tầng/ })
        .first()
        .click()
      expect(await page.getByTestId('compare-highlight').count()).toBe(2)
      // The older plan's picker shows its date and decision number whole on a phone (a select cuts what does
      // not fit), and the line under it names the plan in full.
      const from = page.getByTestId('compare-from')
      const shown = await from.evaluate((el: HTMLSelectElement) => {
        const style = getComputedStyle(el)
        const ctx = document.createElement('canvas').getContext('2d')!
        ctx.font = style.font
        const head = /^.*?QĐ \S+/.exec(el.selectedOptions[0]?.text ?? '')?.[0] ?? ''
        const room = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)
        return { head, fits: ctx.measureText(head).width <= room }
      })
      expect(shown).toEqual({ head: '12/06/2017 · QĐ 2468/QĐ-UBND', fits: true })
      expect(await page.locator('.qh-compare-picker').innerText()).toContain(
        'QĐ 2468/QĐ-UBND ngày 12/06/2017, đã được thay thế bởi QĐ 1234/QĐ-UBND ngày 15/09/2023',
      )
      await page.screenshot({ path: `${shots}/compare-parcel-phone.png`, fullPage: true })

      // Another pair of plans: the detailed-plan level is not here, so pick the two zoning versions the other way round.
      const options = await from.locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value))
      expect(options.length).toBeGreaterThanOrEqual(2)
      const [newer, older] = options as [string, string]
      await from.selectOption(newer)
      await page.getByTestId('compare-to').selectOption(older)
      await page.getByRole('button', { name: 'So sánh', exact: true }).click()
      await expect.poll(() => new URL(page.url()).searchParams.get('from'), { timeout: 10_000 }).toBe(newer)
      await expect
        .poll(async () => (await page.getByTestId('compare-changes').locator('tbody tr').allInnerTexts()).join('\n'), {
          timeout: 20_000,
        })
        .toMatch(/tầng ↓/)
      expect(b.consoleErrors).toEqual([])
    } finally {
      await b.close()
    }
  })

  it('compares the area on screen from the layers panel, on a desktop', async () => {
    const b = await launch(desktop)
    try {
      const { page } = b
      await b.context.addInitScript((s) => localStorage.setItem('qh.session', JSON.stringify(s)), session)
      await page.goto(`${app.url}/demo#/${point.lat}/${point.lng}/17`)
      await mapReady(page)
      await page.getByRole('button', { name: /Lớp bản đồ/ }).click()
      await page.getByTestId('compare-area').click()
      await expect.poll(() => page.getByTestId('compare-verdict').count(), { timeout: 30_000 }).toBe(1)
      expect(await page.getByTestId('compare-place').innerText()).toMatch(
        /^Khu vực đang xem trên bản đồ · [\d.,]+ (m²|ha)$/,
      )
      expect(new URL(page.url()).searchParams.get('bbox')).toMatch(/^[\d.]+,[\d.]+,[\d.]+,[\d.]+$/)
      await page.screenshot({ path: `${shots}/compare-area-desktop.png`, fullPage: true })
      // Back to the map at the middle of the area.
      await page.getByRole('link', { name: 'Về bản đồ' }).click()
      await mapReady(page)
      expect(b.consoleErrors).toEqual([])
    } finally {
      await b.close()
    }
  })
})
