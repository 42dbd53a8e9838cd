import 'ol/ol.css'
import { useEffect, useRef } from 'react'
import OlMap from 'ol/Map'
import View from 'ol/View'
import VectorTileLayer from 'ol/layer/VectorTile'
import VectorTileSource from 'ol/source/VectorTile'
import MVT from 'ol/format/MVT'
import { fromLonLat, transformExtent } from 'ol/proj'
import { defaults as defaultControls, Attribution } from 'ol/control'
import { env } from '../../lib/env.ts'
import type { TileLayerId } from '../../lib/contract/tiles.ts'
import { fetchTileJson } from './tilejson.ts'
import type { MapSearch } from './search.ts'
import { basemapStyle, parcelStyle, planningStyle } from './styles.ts'

// Hồ Chí Minh City centre, used only when the server's TileJSON cannot be read.
const FALLBACK_CENTER: [number, number] = [106.7009, 10.7769]

function tileLayer(id: TileLayerId, style: VectorTileLayer['getStyle'] extends () => infer S ? S : never, opts: { minZoom?: number; maxZoom?: number; attributions?: string }) {
  return new VectorTileLayer({
    declutter: id !== 'planning',
    minZoom: opts.minZoom,
    source: new VectorTileSource({
      format: new MVT(),
      url: `${env.apiBaseUrl}/tiles/${id}/{z}/{x}/{y}.pbf`,
      maxZoom: opts.maxZoom,
      attributions: opts.attributions,
    }),
    style,
  })
}

/** The demo map: the server's basemap, planning and parcel tiles, centred on the demo data. */
export default function MapView({ view }: { view: MapSearch }) {
  const target = useRef<HTMLDivElement>(null)

  useEffect(() => {
    if (!target.current) return
    const ctrl = new AbortController()
    const map = new OlMap({
      target: target.current,
      controls: defaultControls({ attribution: false }).extend([new Attribution({ collapsible: true, collapsed: true })]),
      view: new View({ center: fromLonLat([view.lng ?? FALLBACK_CENTER[0], view.lat ?? FALLBACK_CENTER[1]]), zoom: view.z ?? 15, maxZoom: 20 }),
    })
    fetchTileJson('basemap', ctrl.signal).then(
      (tj) => {
        map.addLayer(tileLayer('basemap', basemapStyle, { maxZoom: tj.maxzoom, attributions: tj.attribution }))
        map.addLayer(tileLayer('planning', planningStyle, { minZoom: 12, maxZoom: 18 }))
        map.addLayer(tileLayer('parcels', parcelStyle, { minZoom: 15.5, maxZoom: 18 }))
        if (view.lat === undefined || view.lng === undefined) {
          map.getView().fit(transformExtent(tj.bounds, 'EPSG:4326', 'EPSG:3857'), { padding: [16, 16, 16, 16], maxZoom: tj.center[2] + 2 })
        }
      },
      (err: unknown) => {
        if (ctrl.signal.aborted) return
        console.info('tilejson unavailable, showing tiles without coverage info:', err instanceof Error ? err.message : err)
        map.addLayer(tileLayer('basemap', basemapStyle, {}))
        map.addLayer(tileLayer('planning', planningStyle, { minZoom: 12 }))
        map.addLayer(tileLayer('parcels', parcelStyle, { minZoom: 15.5 }))
      },
    )
    return () => {
      ctrl.abort()
      map.setTarget(undefined)
      map.dispose()
    }
    // The view is read once at open; moving the map does not remount it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])

  return <div ref={target} style={{ flex: 1, minHeight: 320, background: '#eef2f3' }} role="region" aria-label="Bản đồ quy hoạch" tabIndex={0} data-testid="map" />
}
