// Stakeout, which its route loads in a chunk of its own.
export { StakeoutPage } from './StakeoutPage.tsx'
