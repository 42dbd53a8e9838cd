import { describe, expect, it } from 'vitest'
import { uploadName, xhrFetch, type XhrLike } from './upload.ts'

function xhrThat(
  outcome: 'load' | 'error' | 'abort',
  seen: { headers: Record<string, string>; method?: string; url?: string },
) {
  return class implements XhrLike {
    upload: XhrLike['upload'] = { onprogress: null }
    onload: (() => void) | null = null
    onerror: (() => void) | null = null
    onabort: (() => void) | null = null
    ontimeout: (() => void) | null = null
    status = 0
    responseText = ''
    open(method: string, url: string | URL) {
      seen.method = method
      seen.url = String(url)
    }
    setRequestHeader(name: string, value: string) {
      seen.headers[name] = value
    }
    getAllResponseHeaders() {
      return 'content-type: application/json\r\nretry-after: 5\r\n'
    }
    abort() {
      this.onabort?.()
    }
    send() {
      queueMicrotask(() => {
        if (outcome === 'error') return this.onerror?.()
        if (outcome === 'abort') return this.onabort?.()
        this.upload.onprogress?.({ lengthComputable: true, loaded: 3, total: 4 } as ProgressEvent)
        this.status = 201
        this.responseText = '{"ok":1}'
        this.onload?.()
      })
    }
  }
}

describe('upload transport on XMLHttpRequest', () => {
  it('sends method, URL and headers, reports progress and answers with a Response', async () => {
    const seen = { headers: {} as Record<string, string> } as {
      headers: Record<string, string>
      method?: string
      url?: string
    }
    const progress: [number, number][] = []
    const res = await xhrFetch((l, t) => progress.push([l, t]), xhrThat('load', seen))('/api/uploads', {
      method: 'POST',
      headers: { 'Idempotency-Key': 'k-1' },
    })
    expect(seen).toEqual({ method: 'POST', url: '/api/uploads', headers: { 'idempotency-key': 'k-1' } })
    expect(progress).toEqual([[3, 4]])
    expect(res.status).toBe(201)
    expect(res.headers.get('retry-after')).toBe('5')
    expect(await res.json()).toEqual({ ok: 1 })
  })

  it('fails like fetch on a network error and on abort', async () => {
    const seen = { headers: {} }
    await expect(xhrFetch(() => {}, xhrThat('error', seen))('/x')).rejects.toBeInstanceOf(TypeError)
    await expect(xhrFetch(() => {}, xhrThat('abort', seen))('/x')).rejects.toMatchObject({ name: 'AbortError' })
  })

  it('names the re-encoded file after the original with the new extension', () => {
    expect(uploadName('IMG_2024 mặt tiền.HEIC', 'image/webp')).toBe('IMG_2024-mặt-tiền.webp')
    expect(uploadName('a.png', 'image/jpeg')).toBe('a.jpg')
    expect(uploadName('.jpg', 'image/jpeg')).toBe('anh.jpg')
  })
})
