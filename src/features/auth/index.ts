import { api } from '../../lib/api/index.ts'
import { store } from '../../lib/store.ts'
import { createAuthApi } from './api.ts'

export const authApi = createAuthApi(api, store)
