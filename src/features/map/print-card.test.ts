import { afterEach, describe, expect, it, vi } from 'vitest'
import { printCard, setPrintMap } from './print-card.ts'

const focus = { geometry: null, point: { lat: 10.8, lng: 106.7 } }

describe('printing the planning card', () => {
  afterEach(() => vi.restoreAllMocks())

  it('opens the print dialog only once the map is drawn for the page, and gives the screen its map back after it', async () => {
    const steps: string[] = []
    vi.spyOn(window, 'print').mockImplementation(() => steps.push('print'))
    let drawn!: () => void
    const stop = setPrintMap(
      () =>
        new Promise((done) => {
          steps.push('draw')
          drawn = () => done(() => steps.push('restore'))
        }),
    )
    const printing = printCard(focus)
    await Promise.resolve()
    expect(steps).toEqual(['draw'])
    drawn()
    await printing
    expect(steps).toEqual(['draw', 'print'])
    window.dispatchEvent(new Event('afterprint'))
    window.dispatchEvent(new Event('afterprint'))
    expect(steps).toEqual(['draw', 'print', 'restore'])
    stop()
  })

  it('prints at once where no map is shown', async () => {
    const print = vi.spyOn(window, 'print').mockImplementation(() => {})
    await printCard(focus)
    expect(print).toHaveBeenCalledTimes(1)
  })
})
