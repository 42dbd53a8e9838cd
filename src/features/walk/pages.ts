// The GPS boundary walk screen, which its route loads in a chunk of its own.
export { WalkPage } from './WalkPage.tsx'
