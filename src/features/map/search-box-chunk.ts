import { preloadable } from '../../lib/preloadable.ts'

/**
 * The map's search box, in its own chunk: asked for with the map view's (load-map-view.ts), so the box takes
 * typed text as soon as the map view shows, with no React.lazy wait after the map view's own chunk.
 */
export const searchBoxChunk = preloadable(() => import('./components/SearchBox.tsx'))
