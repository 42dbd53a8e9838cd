import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { landUse } from './land-use.ts'

const rgb = (hex: string) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number]

describe('land-use colours', () => {
  it('gives every code a colour of its own, far enough from every other to tell apart in the legend', () => {
    const codes = Object.entries(landUse)
    for (const [a, { color: ca }] of codes)
      for (const [b, { color: cb }] of codes) {
        if (a >= b) continue
        const [r1, g1, b1] = rgb(ca)
        const [r2, g2, b2] = rgb(cb)
        expect(Math.hypot(r1 - r2, g1 - g2, b1 - b2), `${a} ${ca} vs ${b} ${cb}`).toBeGreaterThanOrEqual(30)
      }
  })

  it('keeps the colours DOMAIN.md gives', () => {
    expect([landUse.ODT, landUse.ONT, landUse.TMD, landUse.DGT, landUse.SON, landUse.NTD].map((u) => u!.color)).toEqual(
      ['#ffa0ff', '#ffd0ff', '#faaaa0', '#ffaa32', '#a0ffff', '#d2d2d2'],
    )
  })

  it('matches what the server’s migrations put in land_use_codes', () => {
    const dir = join(import.meta.dirname, '../../../server/src/db/migrations')
    const server = new Map<string, string>()
    for (const file of readdirSync(dir).sort()) {
      const sql = readFileSync(join(dir, file), 'utf8')
      for (const m of sql.matchAll(/\('([A-Z]{3})', '[^']*', '(#[0-9a-f]{6})'\)/g)) server.set(m[1]!, m[2]!)
      for (const m of sql.matchAll(/update land_use_codes set color = '(#[0-9a-f]{6})' where code = '([A-Z]{3})'/g))
        server.set(m[2]!, m[1]!)
    }
    expect(Object.fromEntries(server)).toEqual(
      Object.fromEntries(Object.entries(landUse).map(([c, u]) => [c, u.color])),
    )
  })
})
