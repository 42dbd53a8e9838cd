// The start page.
export { LandingPage } from './LandingPage.tsx'
