import type OlMap from 'ol/Map'
import type { Coordinate } from 'ol/coordinate'
import type { Extent } from 'ol/extent'

/**
 * The printed card's map extract: the page width less its margins (A4 portrait, 12 mm each side, as
 * map.css's @page) by the 90 mm map.css gives it, in CSS pixels (96 per inch).
 */
export const PRINT_MAP_MM = { width: 186, height: 90 } as const
const mmToPx = (mm: number) => Math.round((mm * 96) / 25.4)
export const PRINT_MAP_PX: [number, number] = [mmToPx(PRINT_MAP_MM.width), mmToPx(PRINT_MAP_MM.height)]

/** A tile that never answers must not keep the print dialog away for ever. */
const RENDER_WAIT_MS = 15_000

/**
 * Draws the map at the printed extract's size before printing: the browser prints the canvas as it is,
 * so a map drawn for a 390 px phone would fill half the page. Centred on the card's parcel, or its point
 * (on a phone the parcel sits above the bottom sheet, off the centre). Resolves once every tile is drawn
 * (`rendercomplete`), with the function that gives the screen its map back.
 */
export async function drawForPrint(
  map: OlMap,
  focus: { extent: Extent | null; centre: Coordinate },
): Promise<() => void> {
  const view = map.getView()
  const before = { center: view.getCenter(), resolution: view.getResolution() }
  map.setSize(PRINT_MAP_PX)
  // OpenLayers sizes the map to its element whenever the element resizes, and laying the page out for
  // print resizes it: until the print is over, the map keeps the size drawn for the page.
  const hold = map as { updateSize: () => void }
  hold.updateSize = () => {}
  // A framing still on its way (the card just opened) would carry the view off the parcel afterwards.
  view.cancelAnimations()
  if (focus.extent)
    view.fit(focus.extent, { size: PRINT_MAP_PX, padding: [24, 24, 24, 24], maxZoom: view.getZoom(), duration: 0 })
  else view.setCenter(focus.centre)
  await new Promise<void>((done) => {
    const timer = setTimeout(done, RENDER_WAIT_MS)
    map.once('rendercomplete', () => {
      clearTimeout(timer)
      done()
    })
    map.render()
  })
  return () => {
    delete (hold as Partial<typeof hold>).updateSize
    map.updateSize()
    view.setCenter(before.center)
    view.setResolution(before.resolution)
  }
}
