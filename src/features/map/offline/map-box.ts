import Feature from 'ol/Feature'
import { always } from 'ol/events/condition'
import { fromExtent } from 'ol/geom/Polygon'
import DragBox from 'ol/interaction/DragBox'
import DragPan from 'ol/interaction/DragPan'
import VectorLayer from 'ol/layer/Vector'
import { transformExtent } from 'ol/proj'
import VectorSource from 'ol/source/Vector'
import Stroke from 'ol/style/Stroke'
import Style from 'ol/style/Style'
import type { MapController } from '../engine/map-controller.ts'
import type { Bbox } from '#core/offline/tile-grid.ts'

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v))
// Web Mercator's edge (tile-grid's MAX_LAT), written here so the map's first chunk needs no grid code.
const MAX_LAT = 85.0511287798066

/** A box from the map (which can show more than the world, or the poles) clamped to the tile grid. */
function normaliseBbox(b: Bbox): Bbox {
  return [
    clamp(b[0], -180, 180),
    clamp(b[1], -MAX_LAT, MAX_LAT),
    clamp(b[2], -180, 180),
    clamp(b[3], -MAX_LAT, MAX_LAT),
  ]
}

/**
 * What the save-area panel does on the map, kept beside the map's own code: the panel loads later and
 * imports none of OpenLayers, so it adds no second copy of the map's library split to the first paint.
 */
export function createBoxTools(ctrl: MapController) {
  // The OpenLayers map itself, not `ctrl.map`: leaving the screen destroys the controller (its `map` is
  // then null) before the panel's clean-up runs, and removing the box from the disposed map is harmless.
  const map = ctrl.map
  return {
    /** The box currently shown, in degrees. */
    viewBbox(): Bbox {
      const extent = map.getView().calculateExtent(map.getSize())
      return normaliseBbox(transformExtent(extent, 'EPSG:3857', 'EPSG:4326') as Bbox)
    },
    /** Draws the chosen box on the map; returns a function that moves it, and one that removes it. */
    showBox() {
      const source = new VectorSource()
      const layer = new VectorLayer({
        source,
        style: new Style({ stroke: new Stroke({ color: '#0369a1', width: 3, lineDash: [10, 6] }) }),
        zIndex: 9,
        properties: { name: 'save-area-box' },
      })
      map.addLayer(layer)
      return {
        set(bbox: Bbox) {
          source.clear(true)
          source.addFeature(new Feature(fromExtent(transformExtent(bbox, 'EPSG:4326', 'EPSG:3857'))))
        },
        remove: () => void map.removeLayer(layer),
      }
    },
    /** A drag on the map draws a box instead of panning, once; returns the function that stops drawing. */
    drawBox(onBox: (bbox: Bbox) => void): () => void {
      const box = new DragBox({ condition: always })
      const pans = map
        .getInteractions()
        .getArray()
        .filter((i) => i instanceof DragPan)
      pans.forEach((p) => p.setActive(false))
      box.on('boxend', () =>
        onBox(normaliseBbox(transformExtent(box.getGeometry().getExtent(), 'EPSG:3857', 'EPSG:4326') as Bbox)),
      )
      map.addInteraction(box)
      return () => {
        map.removeInteraction(box)
        pans.forEach((p) => p.setActive(true))
      }
    },
  }
}
export type BoxTools = ReturnType<typeof createBoxTools>
