import { useEffect, useState } from 'react'
import { getRouteApi } from '@tanstack/react-router'
import { loadedMapView, loadMapView, type MapViewComponent } from './load-map-view.ts'
import { MapFrame } from './MapFrame.tsx'

// OpenLayers is big: the map loads in its own chunk; the page's frame and search field show meanwhile.
// Not React.lazy: revealing a suspended boundary waits until its fallback has shown for 300 ms, and
// that wait sat between the map's code arriving and its first tile request.
const route = getRouteApi('/demo')

export function DemoPage() {
  const search = route.useSearch()
  const [MapView, setMapView] = useState<MapViewComponent | null>(loadedMapView)
  const [failed, setFailed] = useState<{ error: unknown } | null>(null)
  useEffect(() => {
    if (!MapView)
      loadMapView().then(
        (view) => setMapView(() => view),
        (error: unknown) => setFailed({ error }),
      )
  }, [MapView])
  // A chunk that cannot be loaded shows the route's error page, as a failed lazy component did.
  if (failed) throw failed.error
  return (
    <div style={{ position: 'relative', flex: 1, minHeight: 0, display: 'flex' }}>
      <h1 className="visually-hidden">Bản đồ quy hoạch (dữ liệu mẫu)</h1>
      {MapView ? <MapView search={search} /> : <MapFrame />}
    </div>
  )
}
