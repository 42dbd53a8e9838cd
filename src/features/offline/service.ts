import { store } from '../../lib/store.ts'
import { createAreaManager } from './manager.ts'

/** The app's one manager of saved-area downloads, on the app's jotai store. */
export const areaManager = createAreaManager({ store })
