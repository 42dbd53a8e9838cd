// The history of lookups and valuations kept on the device, its focus on the map, and its panel.
export * from './history.ts'
export { historyFocusAtom } from './focus.ts'
export { HistoryPanel } from './components/HistoryPanel.tsx'
