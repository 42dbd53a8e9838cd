import { beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../db/index.ts'
import { demoLoaded } from '../testing/demo.ts'
import { LEVEL_MIN } from './market-evidence.ts'
import { heldOutSales, ratioStudy } from './ratio-study.ts'

let db: Database
beforeAll(async () => {
  db = await demoLoaded()
})

describe('the market estimator on held-out demo sales', () => {
  it(
    'is within 15 % (median absolute error), passes the IAAO COD and PRD bounds, and each confidence level holds what it states',
    { timeout: 300_000 },
    async () => {
      // Every tenth sale is held out (fold 3; the calibration table was set on fold 7): the elasticities
      // are fitted without any of them, and each one is valued as of its own date from the other sales.
      const rows = await heldOutSales(db, { fold: 3 })
      expect(rows.length).toBeGreaterThanOrEqual(250)
      const s = ratioStudy(rows)
      console.log(
        `valuation on ${s.n} held-out sales: median absolute error ${(s.mdape * 100).toFixed(1)} %, COD ${s.cod.toFixed(1)}, PRD ${s.prd.toFixed(3)}, ` +
          `${(s.inside * 100).toFixed(1)} % inside [low, high]; ` +
          s.levels
            .map(
              (l) =>
                `${l.level}: ${l.n} stated ≥ ${(l.stated * 100).toFixed(0)} %, measured ${(l.inside * 100).toFixed(1)} %`,
            )
            .join('; '),
      )
      expect(s.mdape).toBeLessThanOrEqual(0.15)
      expect(s.cod).toBeLessThanOrEqual(15)
      expect(s.prd).toBeGreaterThanOrEqual(0.98)
      expect(s.prd).toBeLessThanOrEqual(1.03)
      expect(rows.every((r) => r.confidence < 1)).toBe(true)
      for (const level of s.levels) {
        // A level seen fewer than 30 times says little either way; "cao" must be seen and must hold.
        if (level.n < 30) continue
        expect(level.inside).toBeGreaterThanOrEqual(Math.max(level.stated, LEVEL_MIN[level.level]))
      }
      expect(s.levels.find((l) => l.level === 'cao')?.n).toBeGreaterThanOrEqual(30)
    },
  )
})
