// The history's panel, shown on the screens their routes split off (saved data offline). Not in index.ts: the
// map's lookups record into the history, and the panel with its dialogs and Mantine parts would load with them.
export { HistoryPanel } from './components/HistoryPanel.tsx'
