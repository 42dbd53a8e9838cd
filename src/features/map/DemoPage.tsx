import { lazy, Suspense } from 'react'
import { Loader } from '@mantine/core'
import { getRouteApi } from '@tanstack/react-router'

// OpenLayers is big: the map loads in its own chunk after the page frame has painted.
const MapView = lazy(() => import('./MapView.tsx'))
const route = getRouteApi('/demo')

export function DemoPage() {
  const search = route.useSearch()
  return (
    <div style={{ position: 'relative', flex: 1, minHeight: 0, display: 'flex' }}>
      <h1 className="visually-hidden">Bản đồ quy hoạch (dữ liệu mẫu)</h1>
      <Suspense
        fallback={
          <div style={{ flex: 1, display: 'grid', placeItems: 'center' }} aria-live="polite">
            <Loader aria-label="Đang tải bản đồ" />
          </div>
        }
      >
        <MapView search={search} />
      </Suspense>
    </div>
  )
}
