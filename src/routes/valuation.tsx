import { createFileRoute } from '@tanstack/react-router'
import { valuationSearch } from '../features/valuation/search.ts'
import { ValuationPage } from '../features/valuation/ValuationPage.tsx'

export const Route = createFileRoute('/valuation')({
  validateSearch: (search) => valuationSearch.parse(search),
  component: ValuationPage,
})
