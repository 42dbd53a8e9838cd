import { lazy, Suspense } from 'react'
import { getRouteApi } from '@tanstack/react-router'
import { MapFrame } from './MapFrame.tsx'

// OpenLayers is big: the map loads in its own chunk; the page's frame and search field show meanwhile.
const MapView = lazy(() => import('./MapView.tsx'))
const route = getRouteApi('/demo')

export function DemoPage() {
  const search = route.useSearch()
  return (
    <div style={{ position: 'relative', flex: 1, minHeight: 0, display: 'flex' }}>
      <h1 className="visually-hidden">Bản đồ quy hoạch (dữ liệu mẫu)</h1>
      <Suspense fallback={<MapFrame />}>
        <MapView search={search} />
      </Suspense>
    </div>
  )
}
