import type { MetaCode, Usage } from '#core/contract/envelope.ts'
import { codeMessages } from '#core/messages.ts'

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
