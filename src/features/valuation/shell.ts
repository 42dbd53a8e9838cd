// What the router needs before the valuation screen's chunk loads: the screen's URL search schema.
export { valuationSearch } from './search.ts'
