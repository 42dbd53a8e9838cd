import { createRootRoute } from '@tanstack/react-router'
import { AppLayout } from '../app/AppLayout.tsx'
import { NotFoundPage, RouteErrorPage } from '../app/RouteErrorPages.tsx'

export const Route = createRootRoute({
  component: AppLayout,
  notFoundComponent: NotFoundPage,
  errorComponent: RouteErrorPage,
})
