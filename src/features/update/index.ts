// What other features use of app updates: marking work that an update must not throw away.
export { useUnsavedWork } from './unsaved-work.ts'
