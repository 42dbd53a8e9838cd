import type { Usage } from '#core/contract/envelope.ts'

/** Per-field messages (a form shows each under its field), or one message for the whole input. */
export type FieldMessages = Record<string, string[]> | string

/**
 * A failure the domain reports on purpose (no parcel there, the day's lookups used up, a wrong
 * password). The domain knows nothing of HTTP: the edge (http/errors.ts) maps each class to the
 * envelope's code and status. An empty message means "the code's usual message".
 */
export class DomainError extends Error {
  readonly fields: FieldMessages | undefined
  constructor(message?: string, opts: { fields?: FieldMessages } = {}) {
    super(message ?? '')
    this.fields = opts.fields
  }
}

/** What was asked for does not exist (or is not there at that point). */
export class NotFoundError extends DomainError {
  override name = 'NotFoundError'
}
/** The input is not acceptable; `fields` says where. */
export class InvalidInputError extends DomainError {
  override name = 'InvalidInputError'
}
/** Something with the same identity exists already (an e-mail taken). */
export class ConflictError extends DomainError {
  override name = 'ConflictError'
}
/** No valid session, or wrong credentials. */
export class NotSignedInError extends DomainError {
  override name = 'NotSignedInError'
}
/** Signed in, but this is someone else's. */
export class ForbiddenError extends DomainError {
  override name = 'ForbiddenError'
}
/** The point lies outside every dataset. */
export class OutsideDataError extends DomainError {
  override name = 'OutsideDataError'
}
/** A file, or the whole upload, is larger than allowed. */
export class TooLargeError extends DomainError {
  override name = 'TooLargeError'
}
/** A file is not an image the app reads. */
export class NotAnImageError extends DomainError {
  override name = 'NotAnImageError'
}

/** Too many attempts in the window; try again after `retryAfterSeconds`. */
export class TooManyAttemptsError extends DomainError {
  override name = 'TooManyAttemptsError'
  readonly retryAfterSeconds: number
  constructor(message: string, retryAfterSeconds: number) {
    super(message)
    this.retryAfterSeconds = retryAfterSeconds
  }
}
/** The server cannot take this now (storage full, too busy); try again after `retryAfterSeconds`. */
export class UnavailableError extends DomainError {
  override name = 'UnavailableError'
  readonly retryAfterSeconds: number
  constructor(message: string, retryAfterSeconds: number) {
    super(message)
    this.retryAfterSeconds = retryAfterSeconds
  }
}
/** Today's counted lookups are used up; `usage` is the day's count and limit. */
export class DailyLimitError extends DomainError {
  override name = 'DailyLimitError'
  readonly usage: Usage
  constructor(message: string, usage: Usage) {
    super(message)
    this.usage = usage
  }
}
