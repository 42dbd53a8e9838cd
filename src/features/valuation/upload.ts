import { uploadData, type UploadData } from '#core/contract/lookups.ts'
import type { ApiClient, ApiResult } from '../../lib/api/client.ts'

/** Bytes sent so far and the total, for one request body. */
export type UploadProgress = (loaded: number, total: number) => void

export type XhrLike = Pick<
  XMLHttpRequest,
  'open' | 'setRequestHeader' | 'send' | 'abort' | 'getAllResponseHeaders' | 'status' | 'responseText'
> & {
  upload: { onprogress: ((e: ProgressEvent) => void) | null }
  onload: (() => void) | null
  onerror: (() => void) | null
  onabort: (() => void) | null
  ontimeout: (() => void) | null
}

function parseHeaders(raw: string): Headers {
  const headers = new Headers()
  for (const line of raw.trim().split(/[\r\n]+/)) {
    const colon = line.indexOf(':')
    if (colon > 0) headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim())
  }
  return headers
}

/**
 * A fetch for one call, on XMLHttpRequest, because fetch cannot report how much of a request body has
 * been sent. It goes through the app's API client (RequestSpec.fetch), so the client's session, toast
 * and usage rules apply to uploads as to every other call.
 */
export function xhrFetch(
  onProgress: UploadProgress,
  Xhr: new () => XhrLike = XMLHttpRequest as unknown as new () => XhrLike,
) {
  return (url: string, init: RequestInit = {}): Promise<Response> =>
    new Promise((resolve, reject) => {
      const xhr = new Xhr()
      xhr.open(init.method ?? 'GET', url)
      new Headers(init.headers).forEach((value, name) => xhr.setRequestHeader(name, value))
      xhr.upload.onprogress = (e) => {
        if (e.lengthComputable) onProgress(e.loaded, e.total)
      }
      xhr.onload = () => {
        const body = xhr.status === 204 || xhr.status === 304 ? null : xhr.responseText
        resolve(new Response(body, { status: xhr.status, headers: parseHeaders(xhr.getAllResponseHeaders()) }))
      }
      // Same errors as fetch, so the client tells offline, network failure and abort apart as usual.
      xhr.onerror = () => reject(new TypeError('Network request failed'))
      xhr.ontimeout = () => reject(new TypeError('Network request timed out'))
      xhr.onabort = () => reject(new DOMException('The request was aborted.', 'AbortError'))
      if (init.signal) {
        if (init.signal.aborted) return xhr.abort()
        init.signal.addEventListener('abort', () => xhr.abort(), { once: true })
      }
      xhr.send((init.body ?? null) as XMLHttpRequestBodyInit | null)
    })
}

/**
 * Sends one photo to POST /api/uploads (field `images`). The idempotency key belongs to the photo, not
 * to the attempt: a retry after a dropped connection gets the first answer instead of a second copy.
 */
export function uploadPhoto(
  api: ApiClient,
  photo: { blob: Blob; name: string; idempotencyKey: string },
  opts: { onProgress?: UploadProgress; signal?: AbortSignal; Xhr?: new () => XhrLike } = {},
): Promise<ApiResult<UploadData>> {
  const form = new FormData()
  form.append('images', photo.blob, photo.name)
  return api.request({
    method: 'POST',
    path: '/api/uploads',
    formData: form,
    headers: { 'Idempotency-Key': photo.idempotencyKey },
    data: uploadData,
    // Each photo shows its own progress; the page-wide loading bar would only repeat it.
    overlay: false,
    signal: opts.signal,
    fetch: xhrFetch(opts.onProgress ?? (() => {}), opts.Xhr),
  })
}

/** The photo's file name after re-encoding, with the extension of its new type. */
export function uploadName(original: string, type: string): string {
  const base =
    original
      .replace(/\.[^.]*$/, '')
      .replace(/[^\p{L}\p{N}_-]+/gu, '-')
      .slice(0, 60) || 'anh'
  return `${base}.${type === 'image/webp' ? 'webp' : type === 'image/png' ? 'png' : 'jpg'}`
}
