// What the app shell renders on every screen: the toasts.
export { Toasts } from './components/Toasts.tsx'
