import { createFileRoute } from '@tanstack/react-router'
import { z } from 'zod'
import { ComparePage } from '../features/compare/pages.ts'

// A malformed value is dropped rather than a 404: the server names what is missing.
const compareSearch = z.object({
  lat: z.coerce.number().min(-90).max(90).optional().catch(undefined),
  lng: z.coerce.number().min(-180).max(180).optional().catch(undefined),
  bbox: z.string().max(100).optional().catch(undefined),
  // Numbers, so the address reads ?from=3&to=1 (the router writes strings of digits in quotes).
  from: z.coerce.number().int().positive().optional().catch(undefined),
  to: z.coerce.number().int().positive().optional().catch(undefined),
})

const idText = (id: number | undefined) => (id === undefined ? undefined : String(id))

function Compare() {
  const search = Route.useSearch()
  const navigate = Route.useNavigate()
  return (
    <ComparePage
      search={{ ...search, from: idText(search.from), to: idText(search.to) }}
      onChoose={(from, to) => void navigate({ search: { ...search, from: Number(from), to: Number(to) } })}
    />
  )
}

export const Route = createFileRoute('/compare')({
  validateSearch: (search) => compareSearch.parse(search),
  component: Compare,
})
