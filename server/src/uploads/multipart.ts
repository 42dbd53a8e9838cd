import busboy from 'busboy'
import { z } from 'zod'
import { MAX_FILE_BYTES, MAX_PHOTOS } from '#core/limits.ts'
import { ApiError } from '../http/errors.ts'

export type UploadLimits = {
  /** Image files per request. */
  maxFiles: number
  /** Bytes per image file, as sent. */
  maxFileBytes: number
  /** Bytes of the whole request body: all files plus multipart overhead. */
  maxBodyBytes: number
  /** Time allowed to receive the whole body; a trickling client is answered after it. */
  timeoutMs: number
  /** Time allowed without a byte arriving; a client gone quiet is answered after it. */
  stallMs: number
}

const MB = 1024 * 1024

export const uploadLimits: UploadLimits = {
  maxFiles: MAX_PHOTOS,
  maxFileBytes: MAX_FILE_BYTES,
  maxBodyBytes: MAX_PHOTOS * MAX_FILE_BYTES + 1 * MB,
  timeoutMs: 60_000,
  stallMs: 15_000,
}

export const FIELD = 'images'

const tooMany = () => new ApiError('MaxFile')
const tooBig = (limits: UploadLimits) =>
  new ApiError('MaxFile', `Mỗi ảnh tối đa ${Math.round(limits.maxFileBytes / MB)} MB.`)
// The rest of such a body is not worth reading: the answer goes out and the connection is closed after it.
const closeAfter = { headers: { Connection: 'close' } }
const bodyTooBig = (limits: UploadLimits) =>
  new ApiError(
    'MaxFile',
    `Dữ liệu tải lên vượt quá ${Math.round(limits.maxBodyBytes / MB)} MB (tối đa 4 ảnh, mỗi ảnh ${Math.round(limits.maxFileBytes / MB)} MB).`,
    closeAfter,
  )
const noImages = () =>
  new ApiError('BadRequest', 'Vui lòng chọn từ 1 đến 4 hình ảnh.', {
    errors: { [FIELD]: ['Vui lòng chọn từ 1 đến 4 hình ảnh (trường "images").'] },
  })
const malformed = () => new ApiError('BadRequest', 'Dữ liệu multipart/form-data không hợp lệ.')
const tooSlow = () =>
  new ApiError('BadRequest', 'Tải ảnh lên quá lâu, vui lòng thử lại khi mạng ổn định hơn.', closeAfter)

const contentLength = z.coerce.number().int().nonnegative()

/**
 * Reads the `images` files of a multipart/form-data request while it streams in, never holding more
 * than the limits allow: a declared Content-Length over the limit is refused before any byte is
 * read, and a body that grows past it (chunked, lying, or one huge file) is cut off where it crosses.
 * Files under other names are read and dropped. Empty files (what a browser sends for an empty
 * file input) are skipped.
 *
 * Throws ApiError: 413 MaxFile (too many files, a file or the body too large), 400 BadRequest (not
 * multipart, malformed, no images, not received within `timeoutMs`, or nothing for `stallMs`).
 */
export async function readImageFiles(req: Request, limits: UploadLimits = uploadLimits): Promise<Buffer[]> {
  const type = req.headers.get('content-type') ?? ''
  if (!/^multipart\/form-data\s*;.*boundary=/i.test(type)) {
    throw new ApiError('BadRequest', 'Nội dung phải là multipart/form-data với trường "images".')
  }
  const declared = req.headers.get('content-length')
  if (declared !== null) {
    const length = contentLength.safeParse(declared)
    if (!length.success) throw new ApiError('BadRequest', 'Content-Length không hợp lệ.')
    if (length.data > limits.maxBodyBytes) throw bodyTooBig(limits)
  }
  if (!req.body) throw noImages()

  let parser: busboy.Busboy
  try {
    parser = busboy({
      headers: { 'content-type': type },
      limits: {
        files: limits.maxFiles,
        fileSize: limits.maxFileBytes,
        fields: 20,
        fieldSize: 64 * 1024,
        parts: 40,
        headerPairs: 20,
      },
    })
  } catch {
    throw malformed()
  }

  const files: Buffer[] = []
  let failure: ApiError | undefined
  const failWith = (err: ApiError) => {
    failure ??= err
  }

  parser.on('file', (name, stream) => {
    // A cut-off form errors the open file stream as well as the parser; the parser's error decides.
    stream.on('error', () => {})
    if (name !== FIELD) {
      stream.resume()
      return
    }
    const chunks: Buffer[] = []
    let size = 0
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length
      chunks.push(chunk)
    })
    stream.on('limit', () => {
      failWith(tooBig(limits))
      chunks.length = 0
    })
    stream.on('end', () => {
      if (!failure && size > 0) files.push(Buffer.concat(chunks, size))
    })
  })
  parser.on('filesLimit', () => failWith(tooMany()))
  parser.on('fieldsLimit', () => failWith(malformed()))
  parser.on('partsLimit', () => failWith(malformed()))

  const finished = new Promise<void>((resolve, reject) => {
    parser.on('close', resolve)
    parser.on('error', reject)
  })
  // Rejections are handled below; this keeps an early failure from surfacing as unhandled.
  finished.catch(() => {})

  let timer: NodeJS.Timeout | undefined
  const deadline = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), limits.timeoutMs)
  })
  // Renewed by every chunk: a client that stops sending is answered long before the whole deadline.
  let stallTimer: NodeJS.Timeout | undefined
  const quiet = () =>
    new Promise<'timeout'>((resolve) => {
      clearTimeout(stallTimer)
      stallTimer = setTimeout(() => resolve('timeout'), limits.stallMs)
    })

  const reader = req.body.getReader()
  let received = 0
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), deadline, quiet()])
      if (next === 'timeout') throw tooSlow()
      if (next.done) break
      received += next.value.byteLength
      if (received > limits.maxBodyBytes) throw bodyTooBig(limits)
      const written = await Promise.race([write(parser, next.value), deadline])
      if (written === 'timeout') throw tooSlow()
      if (failure) throw failure
    }
    parser.end()
    const done = await Promise.race([finished, deadline])
    if (done === 'timeout') throw tooSlow()
  } catch (err) {
    // Stop reading without cancelling: a cancelled request stream destroys the socket (a reset before
    // the answer arrives). settleBody drains or closes what the client still sends.
    reader.releaseLock()
    parser.destroy()
    if (err instanceof ApiError) throw err
    throw failure ?? malformed()
  } finally {
    clearTimeout(timer)
    clearTimeout(stallTimer)
  }
  if (failure) throw failure
  if (files.length === 0) throw noImages()
  return files
}

function write(parser: busboy.Busboy, chunk: Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => {
    parser.write(chunk, (err) => (err ? reject(err) : resolve()))
  })
}
