import { createFileRoute } from '@tanstack/react-router'
import { valuationSearch } from '../features/valuation/shell.ts'
import { ValuationPage } from '../features/valuation/pages.ts'

export const Route = createFileRoute('/valuation')({
  validateSearch: (search) => valuationSearch.parse(search),
  component: ValuationPage,
})
