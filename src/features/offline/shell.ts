// What the app shell renders on every screen: the offline banner and the header's link to saved data.
export { OfflineBanner } from './components/OfflineBanner.tsx'
export { OfflineLink } from './components/OfflineLink.tsx'
