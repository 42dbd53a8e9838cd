// The offline screen (saved areas, queued photos, history), which its route loads in a chunk of its own.
export { OfflineScreen } from './components/OfflineScreen.tsx'
