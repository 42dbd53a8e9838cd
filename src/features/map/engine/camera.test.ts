import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import OlMap from 'ol/Map'
import View from 'ol/View'
import Polygon from 'ol/geom/Polygon'
import { fromLonLat } from 'ol/proj'
import { CHROME, createCamera } from './camera.ts'

beforeAll(() => {
  // OpenLayers watches its element's size; jsdom has no ResizeObserver and nothing here is drawn.
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  )
})
afterAll(() => vi.unstubAllGlobals())

/** A phone's map (390×788) at z18, and a camera that does not animate. */
function phoneMap() {
  const view = new View({ center: fromLonLat([106.7, 10.8]), zoom: 18 })
  const map = new OlMap({ view })
  map.setSize([390, 788])
  return { map, view, camera: createCamera(() => map, view, { lat: 10.8, lng: 106.7, zoom: 18 }, true) }
}

/** Where a map coordinate lands on screen, from the view alone (jsdom renders no frame). */
function pixel(view: View, c: number[]): [number, number] {
  const [cx, cy] = view.getCenter()!
  const r = view.getResolution()!
  return [(c[0]! - cx!) / r + 390 / 2, (cy! - c[1]!) / r + 788 / 2]
}

describe('fitting the looked-up parcel into what the controls leave free', () => {
  it('puts a parcel that lay under the sheet wholly above the sheet and the chips, below the search box and left of the toolbar', () => {
    const { view, camera } = phoneMap()
    // A 20 m parcel at the bottom of the screen, where the sheet (400 px) will cover it.
    const [x, y] = fromLonLat([106.7, 10.7985])
    const parcel = new Polygon([
      [
        [x!, y!],
        [x! + 25, y!],
        [x! + 25, y! + 25],
        [x!, y! + 25],
        [x!, y!],
      ],
    ])
    const sheet = 400
    camera.fitInside(parcel, { bottom: sheet, right: 0 })
    for (const c of parcel.getCoordinates()[0]!) {
      const [px, py] = pixel(view, c)
      expect(py).toBeGreaterThanOrEqual(CHROME.top - 0.5)
      expect(py).toBeLessThanOrEqual(788 - sheet - CHROME.bottom + 0.5)
      expect(px).toBeGreaterThanOrEqual(CHROME.left - 0.5)
      expect(px).toBeLessThanOrEqual(390 - CHROME.right + 0.5)
    }
    // Small enough to fit at the user's zoom: not zoomed in further.
    expect(view.getZoom()).toBeLessThanOrEqual(18)
  })
})
