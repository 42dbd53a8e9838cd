import { describe, expect, it } from 'vitest'
import { MAX_FEATURE_VERTICES } from '#core/limits.ts'
import { RowError } from './errors.ts'
import { prepareGeometry } from './geometry.ts'

const wgs84 = { kind: 'wgs84' } as const
const asIs = (x: number, y: number): [number, number] => [x, y]

/** A square ring near TP.HCM drawn with `n` vertices (the last repeating the first). */
function ring(n: number): number[][] {
  const side = Math.ceil((n - 1) / 4)
  const step = 0.001 / side
  const [w, s] = [106.7, 10.77]
  const out: number[][] = []
  for (let i = 0; i < side; i++) out.push([w + i * step, s])
  for (let i = 0; i < side; i++) out.push([w + 0.001, s + i * step])
  for (let i = 0; i < side; i++) out.push([w + 0.001 - i * step, s + 0.001])
  for (let i = 0; i < side; i++) out.push([w, s + 0.001 - i * step])
  out.push([w, s])
  return out
}

describe('the vertex budget of an imported feature', () => {
  it('refuses a feature with more vertices than its budget, saying how many and what to do', () => {
    const coordinates = [ring(MAX_FEATURE_VERTICES + 10)]
    const n = coordinates[0]!.length
    expect(() => prepareGeometry({ type: 'Polygon', coordinates }, ['polygon'], asIs, wgs84)).toThrow(RowError)
    expect(() => prepareGeometry({ type: 'Polygon', coordinates }, ['polygon'], asIs, wgs84)).toThrow(
      `hình học có ${n.toLocaleString('vi-VN')} đỉnh, quá ${MAX_FEATURE_VERTICES.toLocaleString('vi-VN')} đỉnh cho một đối tượng`,
    )
  })

  it('counts the vertices of every part and ring of a multipolygon together', () => {
    const part = [ring(Math.ceil(MAX_FEATURE_VERTICES / 2) + 8)]
    expect(() =>
      prepareGeometry({ type: 'MultiPolygon', coordinates: [part, part] }, ['polygon'], asIs, wgs84),
    ).toThrow(RowError)
    expect(prepareGeometry({ type: 'MultiPolygon', coordinates: [part] }, ['polygon'], asIs, wgs84).cls).toBe('polygon')
  })
})
