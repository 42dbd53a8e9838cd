import { createFileRoute } from '@tanstack/react-router'
import { z } from 'zod/mini'
import { ComparePage } from '../features/compare/pages.ts'

// A malformed value is dropped rather than a 404: the server names what is missing.
const compareSearch = z.object({
  lat: z.catch(z.optional(z.coerce.number().check(z.gte(-90), z.lte(90))), undefined),
  lng: z.catch(z.optional(z.coerce.number().check(z.gte(-180), z.lte(180))), undefined),
  bbox: z.catch(z.optional(z.string().check(z.maxLength(100))), undefined),
  // Numbers, so the address reads ?from=3&to=1 (the router writes strings of digits in quotes).
  from: z.catch(z.optional(z.coerce.number().check(z.int(), z.positive())), undefined),
  to: z.catch(z.optional(z.coerce.number().check(z.int(), z.positive())), undefined),
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
