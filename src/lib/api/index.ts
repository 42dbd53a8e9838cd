import { env } from '../env.ts'
import { store } from '../store.ts'
import { createApiClient } from './client.ts'

/** The app's one API client; every call to the server goes through it. */
export const api = createApiClient({ store, baseUrl: env.apiBaseUrl })
export type { ApiFailure, ApiResult, ApiSuccess, RequestSpec } from './client.ts'
