// The map screen's entry points for the /demo route: the page, its frame, and the map view's chunk.
export { DemoPage } from './DemoPage.tsx'
export { prepareMapView } from './load-map-view.ts'
export { MapFrame } from './MapFrame.tsx'
export { clearSavedMeasures } from './saved-measures.ts'
