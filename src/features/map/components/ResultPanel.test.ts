import { describe, expect, it } from 'vitest'
import { sheetHeights, snapAfterDrag } from './ResultPanel.tsx'

describe('result sheet on phones', () => {
  it('peeks at 42 % of the map up to 380 px, or just the content when that is shorter, and opens to 90 %', () => {
    expect(sheetHeights(800)).toEqual({ peek: 336, full: 720 })
    expect(sheetHeights(1200)).toEqual({ peek: 380, full: 1080 })
    expect(sheetHeights(800, 150)).toEqual({ peek: 150, full: 720 })
  })

  it('settles a drag on the nearer height, and closes when pulled well below the peek', () => {
    const h = sheetHeights(800)
    expect(snapAfterDrag(600, h)).toBe('full')
    expect(snapAfterDrag(400, h)).toBe('peek')
    expect(snapAfterDrag(150, h)).toBe('closed')
  })
})
