import { decodeMapHash } from '../../../lib/map-url.ts'
import { fetchTileSets } from '../../../lib/tilejson.ts'
import { createMapController, initialLayerSettings, type MapController } from '../engine/map-controller.ts'
import { offerBootMap } from './handoff.ts'

/**
 * How long the app's own code waits for the boot map's first tiles at most: past it the map is
 * drawing slowly (a weak signal, a TileJSON the worker waits for), and the rest of the app should not.
 */
export const FIRST_TILES_WAIT_MS = 3000

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * The stylesheets index.html added for the map (OpenLayers' and map.css): added by a script, they do
 * not hold back what runs, and the map's controls would show unstyled for a moment. One that failed
 * fires nothing more, hence the bound.
 */
function mapStylesheets(): Promise<unknown> {
  const pending = [...document.querySelectorAll<HTMLLinkElement>('head link[rel=stylesheet]')].filter((l) => !l.sheet)
  const loaded = pending.map(
    (link) =>
      new Promise((settle) => {
        link.addEventListener('load', settle, { once: true })
        link.addEventListener('error', settle, { once: true })
      }),
  )
  return Promise.race([Promise.all(loaded), delay(FIRST_TILES_WAIT_MS)])
}

/**
 * Settles when the map has drawn the tiles of its first view (or given up on those that failed), in a
 * task after that frame: OpenLayers tells so from inside the frame's animation callback, and the app's
 * start (preloading its files, compiling its entry) run from there would hold back that frame's paint.
 */
async function firstTiles(ctrl: MapController): Promise<void> {
  await ctrl.layersAdded
  await new Promise((resolve) => ctrl.map.once('rendercomplete', resolve))
  await delay(0)
}

/**
 * The /demo map, started by index.html before the app's entry runs: it creates the map in the boot
 * shell's map area and draws the first tiles while the entry (React, the router, the app shell) is still
 * waiting, so on a slow phone the map no longer waits for the whole app. The TileJSONs are preloaded by
 * index.html. The app's map view takes this map over (handoff.ts) instead of creating its own.
 *
 * Opens where the address's hash says, or fitted to the data; index.html leaves `/demo?lat=&lng=` to
 * the app, whose router reads those. Resolves once the first view's tiles are drawn, or failed, or after
 * FIRST_TILES_WAIT_MS: index.html then starts the entry.
 */
export async function startBootMap(): Promise<void> {
  await mapStylesheets()
  // index.html runs this once the page is parsed; the frame is gone if the app has replaced the boot shell.
  const frame = document.querySelector<HTMLElement>('#root .boot-map')
  if (!frame) return
  const view = decodeMapHash(location.hash)?.view
  const target = document.createElement('div')
  target.className = 'qh-map-canvas'
  frame.prepend(target)
  const settings = initialLayerSettings()
  // The classes and marks the map view's own frame has, so map.css styles the controls and lines alike.
  frame.classList.add('qh-map')
  if (settings.highContrast) frame.dataset.contrast = 'high'
  const ctrl = createMapController(target, { view, settings, tileSets: fetchTileSets() })
  offerBootMap({ ctrl, view })
  // A hidden page draws no frames: nothing to wait for.
  if (document.visibilityState === 'hidden') return
  await Promise.race([firstTiles(ctrl), delay(FIRST_TILES_WAIT_MS)])
}
