import { createRouter } from '@tanstack/react-router'
import { routeTree } from '../routeTree.gen.ts'
import { NotFoundPage, RouteErrorPage } from './RouteErrorPages.tsx'
import { limitPreloads } from './preload.ts'

export const router = createRouter({
  routeTree,
  defaultPreload: 'intent',
  defaultPreloadDelay: 80,
  defaultNotFoundComponent: NotFoundPage,
  defaultErrorComponent: RouteErrorPage,
  scrollRestoration: true,
})

// Intent preloads honour Save-Data / 2G and run at most 4 at once (Link calls router.preloadRoute).
router.preloadRoute = limitPreloads(router.preloadRoute.bind(router)) as typeof router.preloadRoute

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router
  }
}
