import wretch from 'wretch'
import type { z } from 'zod'
import { metaSchema, successSchema, usageSchema, type Usage } from '#core/contract/envelope.ts'
import { errorTexts, maxUsageText, nextVietnamMidnight, type ErrorKey } from '../errors.ts'
import type { Store } from '../store.ts'
import { emptySession, isSessionValid, sessionAtom } from '../../features/auth/atoms.ts'
import { codeToast, pushToast, type ToastKind } from '../../features/notifications/toast.ts'
import { usageAtom } from '../../features/usage/atoms.ts'
import { pendingRequestsAtom } from './atoms.ts'

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

export type RequestSpec<T> = {
  method?: HttpMethod
  /** Path under the API base URL, e.g. `/api/planning`. */
  path: string
  query?: Record<string, string | number | boolean | undefined>
  json?: unknown
  formData?: FormData
  headers?: Record<string, string>
  /** Contract schema of `data` on success. */
  data: z.ZodType<T>
  /** Whether the call needs a signed-in session (default true). */
  session?: boolean
  /**
   * 'errors' (default): failures as red toasts; 'code': the code-based rule (account actions);
   * 'none': the caller shows the outcome itself.
   */
  toast?: 'errors' | 'code' | 'none'
  /** The text for a lookup that found nothing (NotFound), shown in yellow instead of the server's. */
  emptyText?: 'EMPTY_ESTATE' | 'EMPTY_VALUATION'
  /** Show the loading bar; defaults to true when the request has a body. */
  overlay?: boolean
  /** No timeout unless given. */
  timeoutMs?: number
  signal?: AbortSignal
  /** Transport for this one call instead of fetch, e.g. one on XMLHttpRequest that reports upload progress. */
  fetch?: (url: string, init?: RequestInit) => Promise<Response>
}

export type ApiSuccess<T> = { ok: true; data: T; message: string; usage?: Usage }

/** Codes the client produces itself, besides the contract's meta codes. */
export type ClientCode = 'RequiredLogin' | 'Offline' | 'Network' | 'Timeout' | 'Aborted'

export type ApiFailure = {
  ok: false
  /** A contract meta code, or a ClientCode. */
  code: string
  /** HTTP status; 0 when no response arrived. */
  status: number
  /** The first of `messages`. */
  message: string
  messages: string[]
  /** Per-field messages from `errors`, for forms. */
  fieldErrors: Record<string, string[]>
}

export type ApiResult<T> = ApiSuccess<T> | ApiFailure

export type ApiClient = {
  request<T>(spec: RequestSpec<T>): Promise<ApiResult<T>>
  /** Replays the calls interrupted by a login request; call once the session is valid again. */
  resumeAfterLogin(): void
  /** Ends the interrupted calls with a RequiredLogin failure (the user closed the login dialog). */
  cancelAfterLogin(): void
  /** How many calls wait for a login. */
  waitingForLogin(): number
}

type Envelope = {
  httpStatus: number
  code: string
  status: 'OK' | 'NG'
  message: string
  usage: Usage | undefined
  errors: Record<string, string[]> | string | undefined
  dataError: string | undefined
  raw: unknown
}

/** Reads any body; one without `meta.code` counts as InternalServerError / NG / 500 (CONTRACT.md). */
export function parseEnvelope(text: string, httpStatus: number): Envelope {
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch {
    raw = undefined
  }
  const body = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {}
  const meta = metaSchema.safeParse(body.meta)
  if (!meta.success) {
    return { httpStatus: 500, code: 'InternalServerError', status: 'NG', message: '', usage: undefined, errors: undefined, dataError: undefined, raw }
  }
  const errors = body.errors
  const data = body.data
  const dataError =
    typeof data === 'object' && data !== null && typeof (data as Record<string, unknown>).error === 'string'
      ? ((data as Record<string, unknown>).error as string)
      : undefined
  return {
    httpStatus,
    code: meta.data.code,
    status: meta.data.status,
    message: typeof body.message === 'string' ? body.message : '',
    usage: meta.data.usage,
    errors: typeof errors === 'string' || isFieldErrors(errors) ? errors : undefined,
    dataError,
    raw,
  }
}

function isFieldErrors(v: unknown): v is Record<string, string[]> {
  return (
    typeof v === 'object' &&
    v !== null &&
    !Array.isArray(v) &&
    Object.values(v).every((list) => Array.isArray(list) && list.every((m) => typeof m === 'string'))
  )
}

/** What to tell the person: the flattened `errors` values, else the error string, else data.error, else message. */
export function failureMessages(env: Pick<Envelope, 'errors' | 'dataError' | 'message'>): string[] {
  if (typeof env.errors === 'object') {
    const all = Object.values(env.errors).flat().filter((m) => m !== '')
    if (all.length > 0) return all
  }
  if (typeof env.errors === 'string' && env.errors !== '') return [env.errors]
  if (env.dataError) return [env.dataError]
  return env.message ? [env.message] : []
}

export function readCookie(name: string, cookie: string = typeof document === 'undefined' ? '' : document.cookie): string | undefined {
  for (const part of cookie.split(';')) {
    const eq = part.indexOf('=')
    if (eq < 0) continue
    if (part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim())
      } catch {
        return part.slice(eq + 1).trim()
      }
    }
  }
  return undefined
}

function isWretchError(err: unknown): err is Error & { status: number; response: Response } {
  return err instanceof Error && typeof (err as { status?: unknown }).status === 'number' && 'response' in err
}

export function createApiClient(opts: {
  store: Store
  baseUrl: string
  /** Defaults to the global fetch, looked up on each call. */
  fetch?: typeof fetch
  now?: () => number
  isOnline?: () => boolean
}): ApiClient {
  const { store } = opts
  const now = opts.now ?? Date.now
  const isOnline = opts.isOnline ?? (() => typeof navigator === 'undefined' || navigator.onLine !== false)
  const fetchImpl = (url: string, init?: RequestInit) => (opts.fetch ?? globalThis.fetch)(url, init)
  const waiting: { spec: RequestSpec<unknown>; resolve: (r: ApiResult<unknown>) => void }[] = []

  function failure(code: string, status: number, messages: string[], fieldErrors: Record<string, string[]> = {}): ApiFailure {
    return { ok: false, code, status, message: messages[0] ?? '', messages, fieldErrors }
  }

  function toast(kind: ToastKind, texts: string[], spec: RequestSpec<unknown>) {
    if (spec.toast === 'none') return
    if (spec.toast === 'code') return codeToast(store, 'NG', texts)
    for (const text of texts) pushToast(store, kind, text)
  }

  /** Asks for a login and parks the call; it runs again once the user is signed in. */
  function interruptForLogin<T>(spec: RequestSpec<T>, reason: 'REQUIRED_LOGIN' | 'TOKEN_EXPIRED'): Promise<ApiResult<T>> {
    const session = store.get(sessionAtom)
    store.set(sessionAtom, reason === 'TOKEN_EXPIRED' ? { ...emptySession, isOpenLogin: true } : { ...session, isOpenLogin: true })
    pushToast(store, 'warning', errorTexts[reason])
    return new Promise((resolve) => waiting.push({ spec: spec as RequestSpec<unknown>, resolve: resolve as (r: ApiResult<unknown>) => void }))
  }

  function noteUsage(usage: Usage) {
    const current = store.get(usageAtom)
    const resetsAt = current.resetsAt !== null && Date.parse(current.resetsAt) > now() ? current.resetsAt : nextVietnamMidnight(new Date(now())).toISOString()
    store.set(usageAtom, { count: usage.count, limit: usage.limit, resetsAt, updatedAt: now() })
  }

  async function send<T>(spec: RequestSpec<T>): Promise<ApiResult<T>> {
    const session = store.get(sessionAtom)
    const headers: Record<string, string> = { Accept: 'application/json', ...spec.headers }
    if (isSessionValid(session, now())) headers.Authorization = `Bearer ${session.token}`
    const xsrf = readCookie('XSRF-TOKEN')
    if (xsrf) headers['X-XSRF-TOKEN'] = xsrf

    const query = new URLSearchParams()
    for (const [k, v] of Object.entries(spec.query ?? {})) if (v !== undefined) query.set(k, String(v))
    const url = `${opts.baseUrl}${spec.path}${query.size > 0 ? `?${query}` : ''}`

    const controller = new AbortController()
    let timedOut = false
    const onAbort = () => controller.abort()
    if (spec.signal?.aborted) controller.abort()
    spec.signal?.addEventListener('abort', onAbort, { once: true })
    const timer =
      spec.timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            timedOut = true
            controller.abort()
          }, spec.timeoutMs)

    let w = wretch(url).fetchPolyfill(spec.fetch ?? fetchImpl).headers(headers).options({ signal: controller.signal })
    if (spec.json !== undefined) w = w.json(spec.json as object)
    else if (spec.formData !== undefined) w = w.body(spec.formData)

    let httpStatus: number
    let text: string
    try {
      const res = await w.fetch(spec.method ?? 'GET').res()
      httpStatus = res.status
      text = await res.text()
    } catch (err) {
      if (isWretchError(err)) {
        httpStatus = err.status
        text = err.message
      } else if (timedOut) {
        toast('error', [errorTexts.TIMEOUT], spec as RequestSpec<unknown>)
        return failure('Timeout', 0, [errorTexts.TIMEOUT])
      } else if (spec.signal?.aborted) {
        return failure('Aborted', 0, [])
      } else if (!isOnline()) {
        toast('warning', [errorTexts.OFFLINE], spec as RequestSpec<unknown>)
        return failure('Offline', 0, [errorTexts.OFFLINE])
      } else {
        toast('error', [errorTexts.NETWORK], spec as RequestSpec<unknown>)
        return failure('Network', 0, [errorTexts.NETWORK])
      }
    } finally {
      clearTimeout(timer)
      spec.signal?.removeEventListener('abort', onAbort)
    }

    const env = parseEnvelope(text, httpStatus)
    if (env.usage) noteUsage(env.usage)

    if (env.code === 'Ok' && env.status === 'OK' && env.httpStatus < 400) {
      const parsed = successSchema(spec.data).safeParse(env.raw)
      if (parsed.success) {
        if (spec.toast === 'code') codeToast(store, 'OK', [parsed.data.message])
        return { ok: true, data: parsed.data.data as T, message: parsed.data.message, ...(env.usage ? { usage: env.usage } : {}) }
      }
      console.error('response does not match the contract', spec.path, parsed.error.issues)
      toast('error', [errorTexts.UNKNOWN], spec as RequestSpec<unknown>)
      return failure('InternalServerError', 500, [errorTexts.UNKNOWN])
    }

    // The real HTTP status counts here even when the body had no envelope (e.g. a proxy's 401 page).
    const needsSession = spec.session !== false
    if (needsSession && (env.code === 'Unauthorized' || httpStatus === 401)) return interruptForLogin(spec, 'TOKEN_EXPIRED')

    const fieldErrors = typeof env.errors === 'object' ? env.errors : {}
    let kind: ToastKind = 'error'
    let messages: string[]
    if (env.code === 'InternalServerError') messages = [errorTexts.UNKNOWN]
    else if (env.code === 'MaxUsage') {
      const stored = store.get(usageAtom).resetsAt
      const resetsAt = stored !== null && Date.parse(stored) > now() ? new Date(stored) : nextVietnamMidnight(new Date(now()))
      messages = [maxUsageText(resetsAt)]
    } else if (env.code === 'LocationIncorrect') messages = [errorTexts.LOCATION_INCORRECT]
    else if (env.code === 'NotFound' && spec.emptyText) {
      kind = 'warning'
      messages = [errorTexts[spec.emptyText satisfies ErrorKey]]
    } else messages = failureMessages(env)
    if (messages.length === 0) messages = [errorTexts.UNKNOWN]

    toast(kind, messages, spec as RequestSpec<unknown>)
    return failure(env.code, env.httpStatus, messages, fieldErrors)
  }

  async function request<T>(spec: RequestSpec<T>): Promise<ApiResult<T>> {
    if (spec.session !== false) {
      const session = store.get(sessionAtom)
      if (!session.isLogin || session.token === '') return interruptForLogin(spec, 'REQUIRED_LOGIN')
      if (!isSessionValid(session, now())) return interruptForLogin(spec, 'TOKEN_EXPIRED')
    }
    const overlay = spec.overlay ?? (spec.json !== undefined || spec.formData !== undefined)
    if (overlay) store.set(pendingRequestsAtom, (n) => n + 1)
    try {
      return await send(spec)
    } finally {
      if (overlay) store.set(pendingRequestsAtom, (n) => n - 1)
    }
  }

  return {
    request,
    resumeAfterLogin() {
      for (const { spec, resolve } of waiting.splice(0)) void request(spec).then(resolve)
    },
    cancelAfterLogin() {
      for (const { resolve } of waiting.splice(0)) resolve(failure('RequiredLogin', 0, [errorTexts.REQUIRED_LOGIN]))
    },
    waitingForLogin: () => waiting.length,
  }
}
