import { createFileRoute } from '@tanstack/react-router'
import { z } from 'zod'
import { WalkPage } from '../features/walk/pages.ts'

const walkSearch = z.object({
  // A numeric id in a typed address arrives as a number from the router's JSON parsing.
  parcel: z
    .union([z.string().max(64), z.number().int()])
    .transform(String)
    .optional()
    .catch(undefined),
})

function Walk() {
  const { parcel } = Route.useSearch()
  return <WalkPage parcelId={parcel} />
}

export const Route = createFileRoute('/walk')({
  validateSearch: (search) => walkSearch.parse(search),
  component: Walk,
})
