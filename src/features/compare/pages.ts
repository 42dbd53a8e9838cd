// The comparison screen, which its route loads in a chunk of its own.
export { ComparePage } from './ComparePage.tsx'
