import { store } from '../../lib/store.ts'
import { createAreaManager } from './manager.ts'

/** The app's one manager of saved-area downloads, on the app's jotai store. */
// Marked pure so a chunk that takes other things from the offline feature's index does not start the manager.
export const areaManager = /* @__PURE__ */ createAreaManager({ store })
