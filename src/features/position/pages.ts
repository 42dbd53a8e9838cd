// The GPS panel (source, receiver, antenna height, accuracy gate), loaded when it is first opened.
export { GpsSettings } from './components/GpsSettings.tsx'
