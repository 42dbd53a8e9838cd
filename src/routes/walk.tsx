import { createFileRoute } from '@tanstack/react-router'
import { z } from 'zod/mini'
import { WalkPage } from '../features/walk/pages.ts'

const walkSearch = z.object({
  // A numeric id in a typed address arrives as a number from the router's JSON parsing.
  parcel: z.catch(
    z.optional(z.pipe(z.union([z.string().check(z.maxLength(64)), z.int()]), z.transform(String))),
    undefined,
  ),
})

function Walk() {
  const { parcel } = Route.useSearch()
  return <WalkPage parcelId={parcel} />
}

export const Route = createFileRoute('/walk')({
  validateSearch: (search) => walkSearch.parse(search),
  component: Walk,
})
