// What the app shell renders and checks on every screen: the update prompt, and whether a failed
// screen was a chunk of an older build (the error page then reloads instead of blaming the user).
export { UpdatePrompt } from './components/UpdatePrompt.tsx'
export { chunkLoadFailed, isChunkLoadError } from './chunk-reload.ts'
