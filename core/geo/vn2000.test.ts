import { describe, expect, it } from 'vitest'
import { fromVn2000, toVn2000 } from './vn2000.ts'

describe('VN-2000', () => {
  it('puts the Hoàn Kiếm control point within a centimetre of its published grid coordinates', () => {
    const p = toVn2000(21.0285, 105.8542, 105)
    expect(Math.abs(p.x - 2326345.312)).toBeLessThan(0.01)
    expect(Math.abs(p.y - 588591.944)).toBeLessThan(0.01)
  })

  it('round-trips a Ho Chi Minh City point through VN-2000 to within a millimetre', () => {
    const p = toVn2000(10.7769, 106.7009, 105.75)
    const back = fromVn2000(p.x, p.y, 105.75)
    expect(Math.abs(back.lat - 10.7769)).toBeLessThan(1e-8)
    expect(Math.abs(back.lng - 106.7009)).toBeLessThan(1e-8)
  })
})
