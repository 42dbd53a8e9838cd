import { createFileRoute } from '@tanstack/react-router'
import { z } from 'zod/mini'
import { StakeoutPage } from '../features/stakeout/pages.ts'

const stakeoutSearch = z.object({
  // A numeric id in a typed address arrives as a number from the router's JSON parsing.
  parcel: z.catch(
    z.optional(z.pipe(z.union([z.string().check(z.maxLength(64)), z.int()]), z.transform(String))),
    undefined,
  ),
  lat: z.catch(z.optional(z.coerce.number().check(z.gte(-90), z.lte(90))), undefined),
  lng: z.catch(z.optional(z.coerce.number().check(z.gte(-180), z.lte(180))), undefined),
})

function Stakeout() {
  const query = Route.useSearch()
  return <StakeoutPage query={query} />
}

export const Route = createFileRoute('/stakeout')({
  validateSearch: (search) => stakeoutSearch.parse(search),
  component: Stakeout,
})
