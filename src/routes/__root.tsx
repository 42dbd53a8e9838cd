import { createRootRoute } from '@tanstack/react-router'
import { AppLayout } from '../components/AppLayout.tsx'
import { NotFoundPage, RouteErrorPage } from '../components/RouteErrorPages.tsx'

export const Route = createRootRoute({
  component: AppLayout,
  notFoundComponent: NotFoundPage,
  errorComponent: RouteErrorPage,
})
