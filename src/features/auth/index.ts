// What other features use of the account: the session and the one account API.
import { api } from '../../lib/api/index.ts'
import { store, type Store } from '../../lib/store.ts'
import { createAuthApi } from './api.ts'

let clearDevice: (store: Store) => Promise<void> = async () => {}

/** Called once at start by the app: what logging out clears from the device besides the session. */
export function installLogoutCleanup(clear: typeof clearDevice): void {
  clearDevice = clear
}

export const authApi = createAuthApi(api, store, (s) => clearDevice(s))
export { emptySession, isSessionValid, sessionAtom, type Session } from './atoms.ts'
