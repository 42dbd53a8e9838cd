import { describe, expect, it } from 'vitest'
import { landUseCodes as landUse, mixedUseName } from '#core/planning/land-use.ts'
import { legendFor } from './land-use.ts'

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

  it('names every national code the cadastral standard lists, offices, defence, religion and unused hills included', () => {
    for (const code of ['TSC', 'CQP', 'CAN', 'TON', 'TIN', 'DCH', 'SKK', 'DNL', 'MNC', 'BCS', 'DTL', 'LNQ', 'BHK'])
      expect(legendFor([{ code }])[0]!.name, code).toMatch(/^(Đất|Núi)/)
    expect(legendFor([{ code: 'TON' }, { code: 'CQP' }]).map((e) => e.name)).toEqual([
      'Đất quốc phòng',
      'Đất cơ sở tôn giáo',
    ])
  })
})

describe('mixed land use', () => {
  it('says ODT+CLN as a person does, housing first whatever the order written', () => {
    expect(mixedUseName(['ODT', 'CLN'])).toBe('đất ở kết hợp cây lâu năm')
    expect(mixedUseName(['CLN', 'ODT'])).toBe('đất ở kết hợp cây lâu năm')
    expect(mixedUseName(['ODT', 'BHK'])).toBe('đất ở kết hợp cây hằng năm khác')
    expect(mixedUseName(['ONT', 'CLN', 'NTS'])).toBe('đất ở kết hợp cây lâu năm và nuôi trồng thuỷ sản')
    expect(mixedUseName(['ODT'])).toBe('Đất ở tại đô thị')
  })
})
