// What other features use of the daily lookup counter.
export { emptyUsage, loadStoredUsage, remaining, usageAtom, type UsageState } from './atoms.ts'
export { refreshUsage } from './api.ts'
