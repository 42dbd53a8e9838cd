// The valuation screen, which its route loads in a chunk of its own.
export { ValuationPage } from './ValuationPage.tsx'
