import { atom } from 'jotai'

/** True when a newer build is ready but the page holds unsaved work: the user reloads when ready. */
export const updatePromptAtom = atom(false)
