// What the app shell renders on every screen: the daily lookup counter.
export { UsageCounter } from './components/UsageCounter.tsx'
