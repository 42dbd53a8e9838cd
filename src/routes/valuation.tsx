import { createFileRoute } from '@tanstack/react-router'
import { ValuationPage } from '../features/valuation/ValuationPage.tsx'

export const Route = createFileRoute('/valuation')({
  component: ValuationPage,
})
