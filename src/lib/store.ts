import { createStore } from 'jotai'

/** The app's single jotai store, shared by React (Provider) and plain modules such as the API client. */
export const store = createStore()
export type Store = ReturnType<typeof createStore>
