import type { Rejection } from './types.ts'

/** An import that cannot go on (unreadable file, bad option, nothing valid); nothing was changed. */
export class ImportError extends Error {
  override name = 'ImportError'
  readonly rejections: Rejection[]
  readonly rejectedCount: number
  /** What a rejection's number counts: CSV lines or features. */
  readonly unit: string

  constructor(message: string, opts: { rejections?: Rejection[]; rejectedCount?: number; unit?: string } = {}) {
    super(message)
    this.rejections = opts.rejections ?? []
    this.rejectedCount = opts.rejectedCount ?? this.rejections.length
    this.unit = opts.unit ?? 'mục'
  }
}

/** One row is unusable; the row is reported and skipped, the import goes on. */
export class RowError extends Error {
  override name = 'RowError'
}
