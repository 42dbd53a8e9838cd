import { atom } from 'jotai'

/** How many requests that show the loading bar are running. */
export const pendingRequestsAtom = atom(0)
export const isLoadingAtom = atom((get) => get(pendingRequestsAtom) > 0)
