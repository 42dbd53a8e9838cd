import { describe, expect, it } from 'vitest'
import { landUseLine } from './land-use.ts'

describe('the land use of a parcel on one line', () => {
  it('says mixed use with no area per part as a person says it, housing first, with its codes', () => {
    expect(
      landUseLine([
        { code: 'CLN', name: 'Đất trồng cây lâu năm', area_m2: null },
        { code: 'ODT', name: 'Đất ở tại đô thị', area_m2: null },
      ]),
    ).toBe('Đất ở kết hợp cây lâu năm (ODT+CLN)')
  })

  it('names each use with its code when the parts have their own areas, or there is one', () => {
    expect(
      landUseLine([
        { code: 'ODT', name: 'Đất ở tại đô thị', area_m2: 80 },
        { code: 'CLN', name: 'Đất trồng cây lâu năm', area_m2: 40.5 },
      ]),
    ).toBe('Đất ở tại đô thị (ODT), Đất trồng cây lâu năm (CLN)')
    expect(landUseLine([{ code: 'ODT', name: 'Đất ở tại đô thị', area_m2: null }])).toBe('Đất ở tại đô thị (ODT)')
  })
})
