import Collection from 'ol/Collection'
import Feature, { type FeatureLike } from 'ol/Feature'
import type OlMap from 'ol/Map'
import type { Coordinate } from 'ol/coordinate'
import type Geometry from 'ol/geom/Geometry'
import Point from 'ol/geom/Point'
import Snap from 'ol/interaction/Snap'
import type Layer from 'ol/layer/Layer'
import VectorLayer from 'ol/layer/Vector'
import type VectorTileLayer from 'ol/layer/VectorTile'
import RenderFeature, { toFeature } from 'ol/render/Feature'
import VectorSource from 'ol/source/Vector'
import CircleStyle from 'ol/style/Circle'
import Stroke from 'ol/style/Stroke'
import Style from 'ol/style/Style'
import type { EventsKey } from 'ol/events'
import { unByKey } from 'ol/Observable'

/** What a measuring vertex snapped to: a parcel's corner, or a point on one of its sides. */
export type SnapTarget = 'corner' | 'edge'

/** How near (screen pixels) a tap must come to a parcel's corner or side to land on it: a fingertip's reach. */
export const SNAP_PIXELS = 14

/** A corner when the snapped point is one end of the side it lies on, else a point on that side. */
export function snapTarget(vertex: Coordinate, segment: readonly Coordinate[] | null): SnapTarget {
  const ends = segment ?? []
  return ends.some((c) => c[0] === vertex[0] && c[1] === vertex[1]) || ends.length < 2 ? 'corner' : 'edge'
}

/**
 * The parcel outlines among the features a vector tile layer has drawn, as features Snap can index:
 * the polygons only (the tiles also carry the parcel numbers' label points, which are not corners).
 */
export function parcelOutlines(features: readonly FeatureLike[]): Feature<Geometry>[] {
  return features.flatMap((f) => {
    const type = f.getGeometry()?.getType()
    if (type !== 'Polygon' && type !== 'MultiPolygon') return []
    return [f instanceof RenderFeature ? toFeature(f) : (f as Feature<Geometry>)]
  })
}

const hintStyle = new Style({
  image: new CircleStyle({ radius: 11, stroke: new Stroke({ color: '#15803d', width: 3 }) }),
})

/**
 * Snapping while measuring: the parcel outlines drawn in view (the parcels vector tile layer's own tiles,
 * no request) are indexed for OpenLayers' Snap after every move and tile load, so a tap near a parcel's
 * corner or side puts the vertex exactly on it; a green ring shows where it will land, and `onSnap`
 * says what it is on. Snap must act before Draw and Modify: `raise` puts it back on top after them.
 */
export function createParcelSnap(map: OlMap, onSnap: (target: SnapTarget | null) => void) {
  const outlines = new Collection<Feature<Geometry>>()
  const snap = new Snap({ features: outlines, pixelTolerance: SNAP_PIXELS })
  const hint = new Feature<Point>()
  const hintLayer = new VectorLayer({
    source: new VectorSource({ features: [hint] }),
    style: hintStyle,
    zIndex: 71,
    properties: { name: 'measure-snap' },
  })
  let last: SnapTarget | null = null
  const tell = (t: SnapTarget | null) => {
    if (t !== last) onSnap(t)
    last = t
  }
  snap.on('snap', (e) => {
    hint.setGeometry(new Point(e.vertex))
    tell(snapTarget(e.vertex, e.segment))
  })
  snap.on('unsnap', () => {
    hint.setGeometry(undefined)
    tell(null)
  })

  const parcels = () =>
    map
      .getLayers()
      .getArray()
      .find((l) => l.get('name') === 'parcels') as VectorTileLayer | undefined
  // Indexed once the map has drawn after a move or a new tile (the layer hands out only drawn tiles'
  // features), not on every frame of a drag.
  let stale = true
  const index = () => {
    if (!stale) return
    stale = false
    const layer = parcels()
    outlines.clear()
    if (!layer || !snap.getActive() || !layer.isVisible()) return
    outlines.extend(parcelOutlines(layer.getFeaturesInExtent(map.getView().calculateExtent(map.getSize()))))
  }
  const refresh = () => {
    stale = true
    map.render()
  }
  const keys: EventsKey[] = [map.on('moveend', refresh), map.on('rendercomplete', index)]
  const source = parcels()?.getSource()
  if (source) keys.push(source.on('tileloadend', refresh))

  map.addLayer(hintLayer)
  return {
    /** Puts snapping after the interactions added since, so it moves the pointer before they see it. */
    raise() {
      map.removeInteraction(snap)
      if (snap.getActive()) map.addInteraction(snap)
      refresh()
    },
    setEnabled(on: boolean) {
      snap.setActive(on)
      if (!on) {
        hint.setGeometry(undefined)
        tell(null)
      }
      this.raise()
    },
    dispose() {
      unByKey(keys)
      map.removeInteraction(snap)
      map.removeLayer(hintLayer as Layer)
      outlines.clear()
    },
  }
}
export type ParcelSnap = ReturnType<typeof createParcelSnap>
