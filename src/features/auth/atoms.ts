import { atom } from 'jotai'
import { atomWithStorage, createJSONStorage } from 'jotai/utils'
import { storageKeys } from '../../lib/storage-keys.ts'

export type Session = {
  userName: string
  token: string
  /** ISO 8601 with offset, as the server sends it. */
  expiresAt: string
  isLogin: boolean
  isOpenLogin: boolean
}

export const emptySession: Session = { userName: '', token: '', expiresAt: '', isLogin: false, isOpenLogin: false }

function isSession(value: unknown): value is Session {
  if (typeof value !== 'object' || value === null) return false
  const v = value as Record<string, unknown>
  return (
    typeof v.userName === 'string' &&
    typeof v.token === 'string' &&
    typeof v.expiresAt === 'string' &&
    typeof v.isLogin === 'boolean' &&
    typeof v.isOpenLogin === 'boolean'
  )
}

const sessionStorage = createJSONStorage<Session>(() => localStorage)

/**
 * The stored session lives in localStorage; jotai's storage subscription listens to the `storage` event,
 * so a login or logout in one tab shows in every other tab.
 */
const storedSessionAtom = atomWithStorage<Session>(
  storageKeys.session,
  emptySession,
  {
    ...sessionStorage,
    getItem: (key, initial) => {
      const value = sessionStorage.getItem(key, initial)
      return isSession(value) ? value : initial
    },
  },
  { getOnInit: true },
)

/**
 * Whether this page shows the login dialog. Not read back from storage: a dialog left open is not reopened on
 * the next visit (the visit did not ask for it), and the storage re-read when the session is first watched
 * does not close a dialog asked for before (an expired session found at start).
 */
const loginOpenAtom = atom(false)

/** The session with this page's login dialog; written whole, both parts at once. */
export const sessionAtom = atom(
  (get): Session => ({ ...get(storedSessionAtom), isOpenLogin: get(loginOpenAtom) }),
  (get, set, update: Session | ((prev: Session) => Session)) => {
    const next = typeof update === 'function' ? update(get(sessionAtom)) : update
    set(loginOpenAtom, next.isOpenLogin)
    set(storedSessionAtom, next)
  },
)

/** A token counts only while its expiry is later than now. */
export function isSessionValid(session: Session, now: number = Date.now()): boolean {
  if (!session.isLogin || session.token === '') return false
  const expires = Date.parse(session.expiresAt)
  return Number.isFinite(expires) && expires > now
}

/** Which of the secondary account dialogs is open; the login dialog is `session.isOpenLogin`. */
export type AuthDialog = 'register' | 'forgot' | 'reset' | null
export const authDialogAtom = atom<AuthDialog>(null)

/** The e-mail typed last, so the next dialog starts with it filled in. */
export const lastEmailAtom = atom('')
