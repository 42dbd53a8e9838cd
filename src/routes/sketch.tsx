import { createFileRoute } from '@tanstack/react-router'
import { z } from 'zod/mini'
import { SketchPage } from '../features/sketch/index.ts'

const sketchSearch = z.object({
  // A numeric id in a typed address arrives as a number from the router's JSON parsing.
  parcel: z.catch(
    z.optional(z.pipe(z.union([z.string().check(z.maxLength(64)), z.int()]), z.transform(String))),
    undefined,
  ),
  lat: z.catch(z.optional(z.coerce.number().check(z.gte(-90), z.lte(90))), undefined),
  lng: z.catch(z.optional(z.coerce.number().check(z.gte(-180), z.lte(180))), undefined),
})

function Sketch() {
  const query = Route.useSearch()
  return <SketchPage query={query} />
}

export const Route = createFileRoute('/sketch')({
  validateSearch: (search) => sketchSearch.parse(search),
  component: Sketch,
})
