import Feature from 'ol/Feature'
import GeoJSON from 'ol/format/GeoJSON'
import Point from 'ol/geom/Point'
import VectorLayer from 'ol/layer/Vector'
import { fromLonLat } from 'ol/proj'
import VectorSource from 'ol/source/Vector'
import type { Geometry as GeoJsonGeometry } from 'geojson'
import type { Parcel } from '#core/contract/lookups.ts'
import { pinStyle, selectedParcelStyle } from '../styles.ts'
import type { Point as LatLng } from '../../../lib/map-url.ts'

/** GeoJSON as the API sends it (the contract types it loosely). */
export type ApiGeometry = Parcel['geometry']

const geojson = new GeoJSON({ dataProjection: 'EPSG:4326', featureProjection: 'EPSG:3857' })
export const readGeometry = (g: ApiGeometry) => geojson.readGeometry(g as GeoJsonGeometry)

/** What the app marks on the map: the chosen parcel's outline, the dropped pin and the point being looked up. */
export function createMarks() {
  const selectionSource = new VectorSource()
  const selection = new VectorLayer({
    source: selectionSource,
    style: selectedParcelStyle,
    zIndex: 6,
    properties: { name: 'selection' },
  })
  const pinSource = new VectorSource()
  const pins = new VectorLayer({ source: pinSource, zIndex: 8, properties: { name: 'pins' } })
  return {
    layers: [selection, pins],
    setSelectedGeometry(geometry: ApiGeometry | null) {
      selectionSource.clear(true)
      const g = geometry && readGeometry(geometry)
      if (g) selectionSource.addFeature(new Feature(g))
    },
    /** The dropped pin and the point being looked up; null removes one. */
    setPoints(points: { pin: LatLng | null; lookup: LatLng | null }) {
      pinSource.clear(true)
      for (const kind of ['lookup', 'pin'] as const) {
        const p = points[kind]
        if (!p) continue
        const f = new Feature(new Point(fromLonLat([p.lng, p.lat])))
        f.setStyle(pinStyle(kind))
        pinSource.addFeature(f)
      }
    },
  }
}
