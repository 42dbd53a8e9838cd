import { describe, expect, it } from 'vitest'
import { servesShell } from './navigation.ts'

describe('service worker navigation fallback', () => {
  it('serves the app shell for app paths, known or not', () => {
    for (const path of ['/', '/demo', '/valuation', '/khong-co/trang-nay']) expect(servesShell(path)).toBe(true)
  })

  it('leaves /api/, /tiles/ and /builds/ to the network', () => {
    for (const path of ['/api/health', '/tiles/basemap.json', '/builds/latest.json'])
      expect(servesShell(path)).toBe(false)
  })
})
