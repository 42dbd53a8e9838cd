import wretch from 'wretch'
import type { z } from 'zod/mini'
import { metaSchema, successSchema, type Usage } from '#core/contract/envelope.ts'
import { errorTexts, maxUsageText, nextVietnamMidnight, type ErrorKey } from '../errors.ts'
import type { Store } from '../store.ts'
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
  data: z.ZodMiniType<T>
  /** Whether the call needs a signed-in session (default true). */
  session?: boolean
  /**
   * 'errors' (default): failures as red toasts; 'code': the code-based rule (account actions);
   * 'none': the caller shows the outcome itself.
   */
  toast?: 'errors' | 'code' | 'none'
  /** No toast when the server cannot be reached (Offline, Network): the caller answers from the device instead. */
  quietUnreachable?: boolean
  /** Failure codes the caller shows itself, in its own words: no toast for them. */
  quietCodes?: readonly string[]
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

export type NoticeKind = 'error' | 'success' | 'warning' | 'info'

/**
 * What the client needs from the app around it, given by src/app: the session's token, asking for a
 * login, the daily counter and telling the person. The client itself knows no feature's state.
 */
export type ApiHooks = {
  /** The session at `now`: none (never logged in), expired, or valid with its token. */
  session(now: number): { state: 'none' | 'expired' | 'valid'; token: string }
  /** Opens the login dialog; TOKEN_EXPIRED also forgets the session that no longer works. */
  askLogin(reason: 'REQUIRED_LOGIN' | 'TOKEN_EXPIRED'): void
  /** When the daily count goes back to 0, as last learnt; null when not known. */
  usageResetsAt(): string | null
  /** The server said today's count. */
  noteUsage(usage: { count: number; limit: number; resetsAt: string; updatedAt: number }): void
  /** One message for the person, in the colour of its kind. */
  notify(kind: NoticeKind, text: string): void
  /** The code-based rule for account actions (see the notifications feature). */
  notifyByCode(status: 'OK' | 'NG', texts: readonly string[]): void
}

export type ApiClient = {
  request<T>(spec: RequestSpec<T>): Promise<ApiResult<T>>
  /** Replays the calls interrupted by a login request; call once the session is valid again. */
  resumeAfterLogin(): void
  /** Ends the interrupted calls with a RequiredLogin failure (the user closed the login dialog). */
  cancelAfterLogin(): void
  /** How many calls wait for a login. */
  waitingForLogin(): number
  /** Whether someone logged in, valid or expired (an expired session is asked to log in again). */
  hasSession(): boolean
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

/** Reads any body; one without `meta.code` counts as InternalServerError / NG / 500 (docs/api.md). */
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
    return {
      httpStatus: 500,
      code: 'InternalServerError',
      status: 'NG',
      message: '',
      usage: undefined,
      errors: undefined,
      dataError: undefined,
      raw,
    }
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
    const all = Object.values(env.errors)
      .flat()
      .filter((m) => m !== '')
    if (all.length > 0) return all
  }
  if (typeof env.errors === 'string' && env.errors !== '') return [env.errors]
  if (env.dataError) return [env.dataError]
  return env.message ? [env.message] : []
}

export function readCookie(
  name: string,
  cookie: string = typeof document === 'undefined' ? '' : document.cookie,
): string | undefined {
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

/** The call's address: the API base, the path and the query's defined values. */
function requestUrl<T>(baseUrl: string, spec: RequestSpec<T>): string {
  const query = new URLSearchParams()
  for (const [k, v] of Object.entries(spec.query ?? {})) if (v !== undefined) query.set(k, String(v))
  return `${baseUrl}${spec.path}${query.size > 0 ? `?${query}` : ''}`
}

/** JSON asked for, the session's token when it is valid, and the XSRF cookie echoed back. */
function requestHeaders<T>(spec: RequestSpec<T>, session: ReturnType<ApiHooks['session']>): Record<string, string> {
  const headers: Record<string, string> = { Accept: 'application/json', ...spec.headers }
  if (session.state === 'valid') headers.Authorization = `Bearer ${session.token}`
  const xsrf = readCookie('XSRF-TOKEN')
  if (xsrf) headers['X-XSRF-TOKEN'] = xsrf
  return headers
}

/** What came back: a status and body, or why nothing did (the network's failure is told apart later). */
type Sent = { status: number; text: string } | { unreachable: 'Timeout' | 'Aborted' | 'Failed' }

/**
 * Sends the call through wretch with the spec's timeout and the caller's abort. The body is read as text
 * whatever the status, because the envelope is read with the real HTTP status (a proxy's 401 page has no
 * envelope and still means the session is gone); wretch's per-status catchers and JSON would each need
 * that same reading.
 */
async function transmit<T>(
  url: string,
  headers: Record<string, string>,
  spec: RequestSpec<T>,
  fetchImpl: (url: string, init?: RequestInit) => Promise<Response>,
): Promise<Sent> {
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

  let w = wretch(url)
    .fetchPolyfill(spec.fetch ?? fetchImpl)
    .headers(headers)
    .options({ signal: controller.signal })
  if (spec.json !== undefined) w = w.json(spec.json as object)
  else if (spec.formData !== undefined) w = w.body(spec.formData)
  try {
    const res = await w.fetch(spec.method ?? 'GET').res()
    return { status: res.status, text: await res.text() }
  } catch (err) {
    if (isWretchError(err)) return { status: err.status, text: err.message }
    if (timedOut) return { unreachable: 'Timeout' }
    return { unreachable: spec.signal?.aborted ? 'Aborted' : 'Failed' }
  } finally {
    clearTimeout(timer)
    spec.signal?.removeEventListener('abort', onAbort)
  }
}

/** When the daily limit resets: the time the app last heard while it is still ahead, else the next Vietnam midnight. */
function limitResetsAt(hooks: ApiHooks, now: number): Date {
  const known = hooks.usageResetsAt()
  return known !== null && Date.parse(known) > now ? new Date(known) : nextVietnamMidnight(new Date(now))
}

/** How a refusal is told: the texts for the codes the app words itself, else the server's messages. */
function refusalNotice<T>(
  env: Envelope,
  spec: RequestSpec<T>,
  hooks: ApiHooks,
  now: number,
): { kind: NoticeKind; messages: string[] } {
  let kind: NoticeKind = 'error'
  let messages: string[]
  if (env.code === 'InternalServerError') messages = [errorTexts.UNKNOWN]
  else if (env.code === 'MaxUsage') messages = [maxUsageText(limitResetsAt(hooks, now))]
  else if (env.code === 'LocationIncorrect') messages = [errorTexts.LOCATION_INCORRECT]
  else if (env.code === 'NotFound' && spec.emptyText) {
    kind = 'warning'
    messages = [errorTexts[spec.emptyText satisfies ErrorKey]]
  } else messages = failureMessages(env)
  return { kind, messages: messages.length > 0 ? messages : [errorTexts.UNKNOWN] }
}

export function createApiClient(opts: {
  /** Holds the loading bar's count of running requests. */
  store: Store
  hooks: ApiHooks
  baseUrl: string
  /** Defaults to the global fetch, looked up on each call. */
  fetch?: typeof fetch
  now?: () => number
  isOnline?: () => boolean
}): ApiClient {
  const { store, hooks } = opts
  const now = opts.now ?? Date.now
  const isOnline = opts.isOnline ?? (() => typeof navigator === 'undefined' || navigator.onLine !== false)
  const fetchImpl = (url: string, init?: RequestInit) => (opts.fetch ?? globalThis.fetch)(url, init)
  const waiting: { spec: RequestSpec<unknown>; resolve: (r: ApiResult<unknown>) => void }[] = []

  function failure(
    code: string,
    status: number,
    messages: string[],
    fieldErrors: Record<string, string[]> = {},
  ): ApiFailure {
    return { ok: false, code, status, message: messages[0] ?? '', messages, fieldErrors }
  }

  function toast(kind: NoticeKind, texts: string[], spec: RequestSpec<unknown>) {
    if (spec.toast === 'none') return
    if (spec.toast === 'code') return hooks.notifyByCode('NG', texts)
    for (const text of texts) hooks.notify(kind, text)
  }

  /** Asks for a login and parks the call; it runs again once the user is signed in. */
  function interruptForLogin<T>(
    spec: RequestSpec<T>,
    reason: 'REQUIRED_LOGIN' | 'TOKEN_EXPIRED',
  ): Promise<ApiResult<T>> {
    hooks.askLogin(reason)
    hooks.notify('warning', errorTexts[reason])
    return new Promise((resolve) =>
      waiting.push({ spec: spec as RequestSpec<unknown>, resolve: resolve as (r: ApiResult<unknown>) => void }),
    )
  }

  function noteUsage(usage: Usage) {
    // The time as the app last heard it (kept as written) while it is still ahead.
    const known = hooks.usageResetsAt()
    const resetsAt =
      known !== null && Date.parse(known) > now() ? known : nextVietnamMidnight(new Date(now())).toISOString()
    hooks.noteUsage({ count: usage.count, limit: usage.limit, resetsAt, updatedAt: now() })
  }

  /** No answer: a timeout or the network told (offline or not), an abort the caller made kept quiet. */
  function unreachable(why: 'Timeout' | 'Aborted' | 'Failed', spec: RequestSpec<unknown>): ApiFailure {
    if (why === 'Timeout') {
      toast('error', [errorTexts.TIMEOUT], spec)
      return failure('Timeout', 0, [errorTexts.TIMEOUT])
    }
    if (why === 'Aborted') return failure('Aborted', 0, [])
    if (!isOnline()) {
      if (!spec.quietUnreachable) toast('warning', [errorTexts.OFFLINE], spec)
      return failure('Offline', 0, [errorTexts.OFFLINE])
    }
    if (!spec.quietUnreachable) toast('error', [errorTexts.NETWORK], spec)
    return failure('Network', 0, [errorTexts.NETWORK])
  }

  async function send<T>(spec: RequestSpec<T>): Promise<ApiResult<T>> {
    const headers = requestHeaders(spec, hooks.session(now()))
    const sent = await transmit(requestUrl(opts.baseUrl, spec), headers, spec, fetchImpl)
    if ('unreachable' in sent) return unreachable(sent.unreachable, spec as RequestSpec<unknown>)

    const env = parseEnvelope(sent.text, sent.status)
    if (env.usage) noteUsage(env.usage)

    if (env.code === 'Ok' && env.status === 'OK' && env.httpStatus < 400) {
      const parsed = successSchema(spec.data).safeParse(env.raw)
      if (parsed.success) {
        if (spec.toast === 'code') hooks.notifyByCode('OK', [parsed.data.message])
        return {
          ok: true,
          data: parsed.data.data as T,
          message: parsed.data.message,
          ...(env.usage ? { usage: env.usage } : {}),
        }
      }
      console.error('response does not match the contract', spec.path, parsed.error.issues)
      toast('error', [errorTexts.UNKNOWN], spec as RequestSpec<unknown>)
      return failure('InternalServerError', 500, [errorTexts.UNKNOWN])
    }

    // The real HTTP status counts here even when the body had no envelope (e.g. a proxy's 401 page).
    const needsSession = spec.session !== false
    if (needsSession && (env.code === 'Unauthorized' || sent.status === 401))
      return interruptForLogin(spec, 'TOKEN_EXPIRED')

    const fieldErrors = typeof env.errors === 'object' ? env.errors : {}
    const { kind, messages } = refusalNotice(env, spec, hooks, now())
    if (!spec.quietCodes?.includes(env.code)) toast(kind, messages, spec as RequestSpec<unknown>)
    return failure(env.code, env.httpStatus, messages, fieldErrors)
  }

  async function request<T>(spec: RequestSpec<T>): Promise<ApiResult<T>> {
    if (spec.session !== false) {
      const session = hooks.session(now())
      if (session.state === 'none') return interruptForLogin(spec, 'REQUIRED_LOGIN')
      if (session.state === 'expired') return interruptForLogin(spec, 'TOKEN_EXPIRED')
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
    hasSession: () => hooks.session(now()).state !== 'none',
  }
}
