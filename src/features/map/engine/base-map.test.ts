import { afterEach, describe, expect, it, vi } from 'vitest'
import { createBaseMap, mapPixelRatio } from './base-map.ts'

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('the map’s pixel ratio', () => {
  it('is the screen’s own up to 2 device pixels per CSS pixel', () => {
    expect(mapPixelRatio(1)).toBe(1)
    expect(mapPixelRatio(1.75)).toBe(1.75)
    expect(mapPixelRatio(2)).toBe(2)
  })

  it('stays at 2 on denser phone screens, where more pixels cost more to draw than they show', () => {
    expect(mapPixelRatio(2.625)).toBe(2)
    expect(mapPixelRatio(3)).toBe(2)
  })

  it('is what the map draws at', () => {
    vi.stubGlobal('devicePixelRatio', 3)
    // OpenLayers watches its element's size; jsdom has none, and nothing here is drawn.
    vi.stubGlobal(
      'ResizeObserver',
      class {
        observe() {}
        unobserve() {}
        disconnect() {}
      },
    )
    const { map } = createBaseMap(
      document.createElement('div'),
      { lat: 10.797, lng: 106.7, zoom: 15 },
      false,
      [],
      () => null,
    )
    expect(map.getPixelRatio()).toBe(2)
    map.dispose()
  })
})
