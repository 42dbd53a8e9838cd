// The history of lookups and valuations kept on the device and its focus on the map; its panel is in pages.ts.
export * from './history.ts'
export { historyFocusAtom } from './focus.ts'
