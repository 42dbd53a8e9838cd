import { createFileRoute } from '@tanstack/react-router'
import { mapSearch } from '../lib/map-url.ts'
import { DemoPage, MapFrame, prepareMapView } from '../features/map/index.ts'

export const Route = createFileRoute('/demo')({
  validateSearch: (search) => mapSearch.parse(search),
  // Not awaited: the map view's code (OpenLayers) and the TileJSONs start loading alongside the route's
  // own chunk instead of after it; the page still renders as soon as that chunk is there.
  loader: prepareMapView,
  // Only on entering the route: the map writes its view into the search params as it moves.
  shouldReload: false,
  component: DemoPage,
  // In the entry chunk: while the route's chunk loads, the page keeps the frame the boot shell drew.
  pendingComponent: MapFrame,
  pendingMinMs: 0,
})
