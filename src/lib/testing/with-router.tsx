import type { ReactNode } from 'react'
import { MantineProvider } from '@mantine/core'
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from '@tanstack/react-router'

/**
 * A component under test inside Mantine and a memory router, so its links render as they do in the app
 * (a Link needs a router). The router renders after its first load: find elements with `findBy…`.
 */
export function withRouter(ui: ReactNode, path = '/'): ReactNode {
  const router = createRouter({
    routeTree: createRootRoute({ component: () => ui }),
    history: createMemoryHistory({ initialEntries: [path] }),
  })
  return (
    <MantineProvider>
      <RouterProvider router={router} />
    </MantineProvider>
  )
}
