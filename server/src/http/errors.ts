import type { MetaCode, Usage } from '#core/contract/envelope.ts'
import { codeMessages } from '#core/messages.ts'
import {
  ConflictError,
  DailyLimitError,
  DomainError,
  ForbiddenError,
  InvalidInputError,
  NotAnImageError,
  NotFoundError,
  NotSignedInError,
  OutsideDataError,
  TooLargeError,
  TooManyAttemptsError,
  UnavailableError,
} from '../domain-errors.ts'

/** A failure a handler answers on purpose; anything else thrown becomes InternalServerError. */
export class ApiError extends Error {
  override name = 'ApiError'
  readonly code: Exclude<MetaCode, 'Ok'>
  readonly errors: Record<string, string[]> | string | undefined
  readonly headers: Record<string, string> | undefined
  /** meta.usage on failures of counted lookups (MaxUsage). */
  readonly usage: Usage | undefined

  constructor(
    code: Exclude<MetaCode, 'Ok'>,
    message?: string,
    opts: { errors?: Record<string, string[]> | string; headers?: Record<string, string>; usage?: Usage } = {},
  ) {
    super(message ?? codeMessages[code])
    this.code = code
    this.errors = opts.errors
    this.headers = opts.headers
    this.usage = opts.usage
  }
}

/** The envelope code of each domain failure: the one place the domain's errors meet HTTP. */
const domainCodes: [new (...args: never[]) => DomainError, Exclude<MetaCode, 'Ok'>][] = [
  [NotFoundError, 'NotFound'],
  [InvalidInputError, 'BadRequest'],
  [ConflictError, 'Conflict'],
  [NotSignedInError, 'Unauthorized'],
  [ForbiddenError, 'Forbidden'],
  [OutsideDataError, 'LocationIncorrect'],
  [TooLargeError, 'MaxFile'],
  [NotAnImageError, 'UnsupportedMedia'],
  [TooManyAttemptsError, 'TooManyRequests'],
  [UnavailableError, 'ServiceUnavailable'],
  [DailyLimitError, 'MaxUsage'],
]

/** The answer for a domain failure: its code, its message (or the code's usual one), fields, Retry-After and usage. */
export function apiErrorOf(err: DomainError): ApiError {
  const code = domainCodes.find(([kind]) => err instanceof kind)?.[1] ?? 'InternalServerError'
  const retryAfter =
    err instanceof TooManyAttemptsError || err instanceof UnavailableError ? err.retryAfterSeconds : undefined
  return new ApiError(code, err.message === '' ? undefined : err.message, {
    ...(err.fields !== undefined ? { errors: err.fields } : {}),
    ...(retryAfter !== undefined ? { headers: { 'Retry-After': String(retryAfter) } } : {}),
    ...(err instanceof DailyLimitError ? { usage: err.usage } : {}),
  })
}
