// The account screen, which its route loads in a chunk of its own.
export { AccountPage } from './components/AccountPage.tsx'
