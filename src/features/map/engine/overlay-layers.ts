import type OlMap from 'ol/Map'
import TileLayer from 'ol/layer/Tile'
import { transformExtent } from 'ol/proj'
import XYZ from 'ol/source/XYZ'
import type { OverlayTileJson } from '#core/contract/tiles.ts'
import { mapConfig } from '../config.ts'
import type { OverlayChoice } from '../overlays.ts'

// Above the planning zones (a scan is turned on to be read) and under the parcels, whose lines and numbers stay on top.
const OVERLAY_Z = 3.5

/** One OpenLayers tile layer per raster overlay, made when first turned on, then shown, hidden and faded. */
export function createOverlayLayers(map: OlMap) {
  const layers = new Map<string, TileLayer<XYZ>>()
  const make = (o: OverlayTileJson) => {
    const layer = new TileLayer({
      source: new XYZ({
        url: o.tiles[0],
        tileSize: mapConfig.tileSize,
        minZoom: o.minzoom,
        maxZoom: o.maxzoom,
        attributions: o.attribution,
      }),
      extent: transformExtent(o.bounds, 'EPSG:4326', 'EPSG:3857'),
      // Shallower than its first zoom the whole sheet is a few pixels: not drawn.
      minZoom: o.minzoom - 1.001,
      zIndex: OVERLAY_Z,
      properties: { name: `overlay:${o.id}` },
    })
    map.addLayer(layer)
    layers.set(o.id, layer)
    return layer
  }
  return {
    sync(list: readonly OverlayTileJson[], choiceOf: (id: string) => OverlayChoice) {
      for (const o of list) {
        const c = choiceOf(o.id)
        const layer = layers.get(o.id) ?? (c.on ? make(o) : undefined)
        layer?.setVisible(c.on)
        layer?.setOpacity(c.opacity)
      }
    },
  }
}
