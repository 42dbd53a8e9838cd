import { createFileRoute } from '@tanstack/react-router'
import { z } from 'zod/mini'
import { OfflineScreen } from '../features/offline/pages.ts'

const offlineSearch = z.object({ tab: z.optional(z.enum(['areas', 'queue', 'history'])) })

function OfflinePage() {
  const { tab } = Route.useSearch()
  const navigate = Route.useNavigate()
  return (
    <OfflineScreen tab={tab ?? 'areas'} onTab={(next) => void navigate({ search: { tab: next }, replace: true })} />
  )
}

export const Route = createFileRoute('/offline')({
  validateSearch: (search) => offlineSearch.parse(search),
  component: OfflinePage,
})
