/** The GPS boundary walk. */
export { WalkPage } from './WalkPage.tsx'
