import { afterEach, describe, expect, it, vi } from 'vitest'
import { cleanup, render } from '@testing-library/react'
import type { MapController } from './engine/map-controller.ts'

afterEach(() => {
  cleanup()
  vi.useRealTimers()
})

async function load() {
  vi.resetModules()
  const handoff = await import('./boot/handoff.ts')
  const { MapFrame } = await import('./MapFrame.tsx')
  const boot = { setTarget: vi.fn(), destroy: vi.fn() }
  handoff.offerBootMap({ ctrl: boot as unknown as MapController, view: undefined })
  return { MapFrame, boot }
}

describe('the map page’s frame', () => {
  it('shows the map index.html started in its map area while the map view’s code loads', async () => {
    const { MapFrame, boot } = await load()
    const { container } = render(<MapFrame />)
    expect(boot.setTarget).toHaveBeenCalledWith(container.querySelector('.qh-map-canvas'))
  })

  it('lets that map go when it is replaced by another page than the map view', async () => {
    const { MapFrame, boot } = await load()
    vi.useFakeTimers()
    render(<MapFrame />).unmount()
    vi.runAllTimers()
    expect(boot.destroy).toHaveBeenCalledOnce()
  })
})
