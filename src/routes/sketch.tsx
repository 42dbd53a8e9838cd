import { createFileRoute } from '@tanstack/react-router'
import { z } from 'zod'
import { SketchPage } from '../features/sketch/index.ts'

const sketchSearch = z.object({
  // A numeric id in a typed address arrives as a number from the router's JSON parsing.
  parcel: z
    .union([z.string().max(64), z.number().int()])
    .transform(String)
    .optional()
    .catch(undefined),
  lat: z.coerce.number().min(-90).max(90).optional().catch(undefined),
  lng: z.coerce.number().min(-180).max(180).optional().catch(undefined),
})

function Sketch() {
  const query = Route.useSearch()
  return <SketchPage query={query} />
}

export const Route = createFileRoute('/sketch')({
  validateSearch: (search) => sketchSearch.parse(search),
  component: Sketch,
})
