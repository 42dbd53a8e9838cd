// What other features use of the daily lookup counter.
export {
  emptyUsage,
  isUsageStale,
  loadStoredUsage,
  lowUsageText,
  remaining,
  usageAtom,
  type UsageState,
} from './atoms.ts'
export { refreshUsage } from './api.ts'
