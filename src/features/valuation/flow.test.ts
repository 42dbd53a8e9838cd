import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createStore } from 'jotai'
import { createApiClient } from '../../lib/api/client.ts'
import { appApiHooks } from '../../app/api-hooks.ts'
import { errorTexts } from '../../lib/errors.ts'
import { MAX_FILE_BYTES } from '../../lib/images/limits.ts'
import { ImageProcessingError, type ProcessedImage } from '../../lib/images/process.ts'
import { sessionAtom } from '../auth/atoms.ts'
import { add as addHistory, clear as clearHistory, list as listHistory } from '../history/history.ts'
import { toastsAtom } from '../notifications/atoms.ts'
import { createValuationApi } from './api.ts'
import { draftAtom, photosAtom, queuedAtom, resultAtom } from './atoms.ts'
import { emptyDraft } from './form.ts'
import {
  addPhotoFiles,
  chooseParcel,
  parcelLabel,
  placeFromMap,
  QUEUED_TEXT,
  runValuation,
  sheetParcelOf,
  uploadPending,
  type ValuationDeps,
} from './flow.ts'
import { movePhoto, removePhoto, type PhotoItem } from './photos.ts'
import { dismissQueued, retryQueued, runQueued, startValuationQueue } from './queue.ts'
import { dropQueued, readQueued } from './queue-store.ts'
import { parcelFixture, planningFixture, valuationFixture } from './test-fixtures.ts'
import type { XhrLike } from './upload.ts'

const NOW = Date.parse('2026-07-01T03:00:00Z')
const ok = (data: unknown, usage?: { count: number; limit: number }) =>
  new Response(
    JSON.stringify({ message: 'Thành công.', meta: { code: 'Ok', status: 'OK', ...(usage ? { usage } : {}) }, data }),
    {
      status: 200,
      headers: { 'Content-Type': 'application/json' },
    },
  )
const fail = (code: string, status: number, message: string) =>
  new Response(JSON.stringify({ message, meta: { code, status: 'NG' }, data: null }), {
    status,
    headers: { 'Content-Type': 'application/json' },
  })

type SentUpload = { url: string; headers: Record<string, string>; body: FormData }

/** XMLHttpRequest stand-in: reports upload progress in two steps, then answers like POST /api/uploads. */
function fakeXhr(
  sent: SentUpload[],
  answer: (n: number) => { status: number; body: unknown } = (n) => ({
    status: 201,
    body: {
      message: 'Đã tải ảnh lên.',
      meta: { code: 'Ok', status: 'OK' },
      data: [{ id: `img-${n}`, url: `/api/uploads/img-${n}`, width: 800, height: 600, bytes: 1000 }],
    },
  }),
) {
  return class implements XhrLike {
    upload: XhrLike['upload'] = { onprogress: null }
    onload: (() => void) | null = null
    onerror: (() => void) | null = null
    onabort: (() => void) | null = null
    ontimeout: (() => void) | null = null
    status = 0
    responseText = ''
    private url = ''
    private headers: Record<string, string> = {}
    open(_method: string, url: string | URL) {
      this.url = String(url)
    }
    setRequestHeader(name: string, value: string) {
      this.headers[name.toLowerCase()] = value
    }
    getAllResponseHeaders() {
      return 'content-type: application/json\r\n'
    }
    abort() {
      this.onabort?.()
    }
    send(body?: Document | XMLHttpRequestBodyInit | null) {
      sent.push({ url: this.url, headers: this.headers, body: body as FormData })
      const n = sent.length
      queueMicrotask(() => {
        this.upload.onprogress?.({ lengthComputable: true, loaded: 500, total: 1000 } as ProgressEvent)
        this.upload.onprogress?.({ lengthComputable: true, loaded: 1000, total: 1000 } as ProgressEvent)
        const a = answer(n)
        this.status = a.status
        this.responseText = JSON.stringify(a.body)
        this.onload?.()
      })
    }
  }
}

const processed = (name: string): ProcessedImage => ({
  blob: new Blob([new Uint8Array(100)], { type: 'image/webp' }),
  type: 'image/webp',
  width: 2048,
  height: 1536,
  thumbnail: `data:image/jpeg;base64,${btoa(name)}`,
  gps: null,
})

function setup(
  opts: { loggedIn?: boolean; online?: boolean; routes?: (url: URL, init?: RequestInit) => Response | undefined } = {},
) {
  const store = createStore()
  if (opts.loggedIn !== false)
    store.set(sessionAtom, {
      userName: 'Lan',
      token: 'tok',
      expiresAt: '2026-08-01T00:00:00+07:00',
      isLogin: true,
      isOpenLogin: false,
    })
  store.set(draftAtom, emptyDraft)
  const calls: { path: string; init?: RequestInit }[] = []
  const fetchMock = vi.fn(async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input), 'http://app.test')
    calls.push({ path: url.pathname + url.search, init })
    const custom = opts.routes?.(url, init)
    if (custom) return custom
    if (url.pathname === '/api/valuation') return ok(valuationFixture, { count: 3, limit: 20 })
    if (url.pathname === '/api/planning') return ok(planningFixture, { count: 4, limit: 20 })
    return fail('NotFound', 404, 'Không có.')
  })
  const client = createApiClient({
    store,
    hooks: appApiHooks(store),
    baseUrl: '',
    fetch: fetchMock as typeof fetch,
    now: () => NOW,
    isOnline: () => opts.online ?? true,
  })
  const uploads: SentUpload[] = []
  const process = vi.fn(async (file: File) => processed(file.name))
  const deps: ValuationDeps = {
    store,
    client,
    api: createValuationApi(client),
    process,
    isOnline: () => opts.online ?? true,
    now: () => NOW,
    Xhr: fakeXhr(uploads),
  }
  const photoFile = (name: string, size = 300_000, type = 'image/jpeg') => {
    const f = new File([new Uint8Array(8)], name, { type })
    Object.defineProperty(f, 'size', { value: size })
    return f
  }
  return {
    store,
    deps,
    calls,
    uploads,
    process,
    photoFile,
    toasts: () => store.get(toastsAtom).map((t) => [t.color, t.title]),
  }
}

beforeEach(async () => {
  localStorage.clear()
  await clearHistory()
  await dropQueued()
})

describe('attaching photos', () => {
  it('keeps 4 photos and refuses the fifth with exactly "Tối đa 4 hình ảnh."', async () => {
    const { deps, store, photoFile } = setup({ loggedIn: false })
    expect(await addPhotoFiles(deps, [photoFile('1.jpg'), photoFile('2.jpg')])).toEqual([])
    const early: string[][] = []
    const adding = addPhotoFiles(deps, [photoFile('3.jpg'), photoFile('4.jpg'), photoFile('5.jpg')], (m) =>
      early.push(m),
    )
    expect(early).toEqual([['Tối đa 4 hình ảnh.']])
    expect(await adding).toEqual(['Tối đa 4 hình ảnh.'])
    expect(store.get(photosAtom).map((p) => p.name)).toEqual(['1.jpg', '2.jpg', '3.jpg', '4.jpg'])
    expect(await addPhotoFiles(deps, [photoFile('6.jpg')])).toEqual([errorTexts.MAX_FILE])
    expect(store.get(photosAtom)).toHaveLength(4)
  })

  it('refuses a non-image and a file over 10 MB without preparing them', async () => {
    const { deps, store, process, photoFile } = setup({ loggedIn: false })
    const messages = await addPhotoFiles(deps, [
      photoFile('hop-dong.pdf', 5000, 'application/pdf'),
      photoFile('lon.jpg', MAX_FILE_BYTES + 1),
      photoFile('ok.jpg'),
    ])
    expect(messages).toEqual([
      '"hop-dong.pdf" không phải là hình ảnh. Vui lòng chọn ảnh (JPEG, PNG, WebP…).',
      'Ảnh "lon.jpg" lớn hơn 10 MB. Vui lòng chọn ảnh nhỏ hơn.',
    ])
    expect(process).toHaveBeenCalledTimes(1)
    expect(store.get(photosAtom).map((p) => p.name)).toEqual(['ok.jpg'])
  })

  it('drops a photo the browser cannot read and says why', async () => {
    const { deps, store, process, photoFile } = setup({ loggedIn: false })
    process.mockRejectedValueOnce(
      new ImageProcessingError('Không đọc được ảnh "hong.jpg". Vui lòng chọn ảnh JPEG, PNG hoặc WebP.'),
    )
    expect(await addPhotoFiles(deps, [photoFile('hong.jpg')])).toEqual([
      'Không đọc được ảnh "hong.jpg". Vui lòng chọn ảnh JPEG, PNG hoặc WebP.',
    ])
    expect(store.get(photosAtom)).toEqual([])
  })

  it('prepares each photo with the "giữ vị trí GPS" choice', async () => {
    const { deps, store, process, photoFile } = setup({ loggedIn: false })
    store.set(draftAtom, { ...emptyDraft, keepGps: true })
    await addPhotoFiles(deps, [photoFile('a.jpg')])
    expect(process).toHaveBeenCalledWith(expect.any(File), { keepGps: true })
    expect(store.get(photosAtom)[0]).toMatchObject({ status: 'ready', type: 'image/webp', width: 2048, height: 1536 })
  })

  it('keeps photos waiting while logged out or offline instead of sending them', async () => {
    for (const opts of [{ loggedIn: false }, { online: false }]) {
      const { deps, store, uploads, photoFile } = setup(opts)
      await addPhotoFiles(deps, [photoFile('a.jpg')])
      expect(uploads).toEqual([])
      expect(store.get(photosAtom)[0]!.status).toBe('ready')
    }
  })

  it('sends each photo on its own with progress, its own Idempotency-Key and the session token', async () => {
    const { deps, store, uploads, photoFile } = setup()
    const progress: number[] = []
    store.sub(photosAtom, () => {
      const p = store.get(photosAtom)[0]
      if (p?.status === 'uploading') progress.push(p.progress)
    })
    await addPhotoFiles(deps, [photoFile('a.jpg'), photoFile('b.jpg')])
    await vi.waitFor(() => expect(store.get(photosAtom).every((p) => p.status === 'uploaded')).toBe(true))
    expect(uploads).toHaveLength(2)
    expect(uploads.map((u) => u.url)).toEqual(['/api/uploads', '/api/uploads'])
    expect(uploads[0]!.headers.authorization).toBe('Bearer tok')
    const keys = store.get(photosAtom).map((p) => p.idempotencyKey)
    expect(uploads.map((u) => u.headers['idempotency-key'])).toEqual(keys)
    expect(new Set(keys).size).toBe(2)
    expect(uploads[0]!.body.getAll('images')).toHaveLength(1)
    expect((uploads[0]!.body.get('images') as File).name).toBe('a.webp')
    expect(progress).toEqual(expect.arrayContaining([0, 0.5, 1]))
    expect(store.get(photosAtom).map((p) => p.uploadId)).toEqual(['img-1', 'img-2'])
  })

  it('retries a failed upload with the same Idempotency-Key', async () => {
    const { deps, store, photoFile } = setup()
    const sent: SentUpload[] = []
    let attempt = 0
    deps.Xhr = fakeXhr(sent, () =>
      ++attempt === 1
        ? {
            status: 503,
            body: { message: 'Máy chủ bận.', meta: { code: 'ServiceUnavailable', status: 'NG' }, data: null },
          }
        : {
            status: 201,
            body: {
              message: 'ok',
              meta: { code: 'Ok', status: 'OK' },
              data: [{ id: 'img-x', url: '/api/uploads/img-x', width: 1, height: 1, bytes: 1 }],
            },
          },
    )
    await addPhotoFiles(deps, [photoFile('a.jpg')])
    await vi.waitFor(() => expect(store.get(photosAtom)[0]!.status).toBe('failed'))
    expect(store.get(photosAtom)[0]!.error).toBe('Máy chủ bận.')
    expect(await uploadPending(deps)).toBe(true)
    expect(sent.map((s) => s.headers['idempotency-key'])).toEqual([
      store.get(photosAtom)[0]!.idempotencyKey,
      store.get(photosAtom)[0]!.idempotencyKey,
    ])
  })
})

describe('reordering and removing photos', () => {
  const list = ['a', 'b', 'c'].map((k) => ({ key: k }) as PhotoItem)
  const keys = (l: PhotoItem[]) => l.map((p) => p.key)

  it('moves a photo one place earlier or later', () => {
    expect(keys(movePhoto(list, 'b', -1))).toEqual(['b', 'a', 'c'])
    expect(keys(movePhoto(list, 'b', 1))).toEqual(['a', 'c', 'b'])
  })

  it('leaves the order alone at either end', () => {
    expect(keys(movePhoto(list, 'a', -1))).toEqual(['a', 'b', 'c'])
    expect(keys(movePhoto(list, 'c', 1))).toEqual(['a', 'b', 'c'])
  })

  it('removes one photo', () => {
    expect(keys(removePhoto(list, 'b'))).toEqual(['a', 'c'])
  })
})

describe('choosing the parcel', () => {
  it('fills the facts from the parcel and clears the previous parcel’s', () => {
    const { store } = setup()
    store.set(draftAtom, { ...emptyDraft, frontage: '9', notes: 'thửa cũ', keepGps: true })
    chooseParcel(store, parcelFixture)
    expect(store.get(draftAtom)).toMatchObject({ area: '69,7', frontage: '', notes: '', keepGps: true })
    expect(store.get(draftAtom).place).toMatchObject({
      label: '24 Đường Đinh Tiên Hoàng, Phường Gia An (Tờ 1, thửa 5)',
      parcelId: '17931',
      sheet: 1,
      parcel: 5,
    })
  })

  it('opens on the map’s point with the tờ/thửa the map knew, asking nothing: a parcel’s facts come only with a counted lookup', async () => {
    const { deps, store, calls } = setup()
    store.set(draftAtom, { ...emptyDraft, area: '120', notes: 'thửa cũ' })
    await placeFromMap(deps, { lat: 10.8026, lng: 106.6909, sheet: 1, parcel: 5 })
    expect(calls).toEqual([])
    expect(store.get(draftAtom).place).toEqual({
      lat: 10.8026,
      lng: 106.6909,
      label: 'Tờ 1, thửa 5',
      sheet: 1,
      parcel: 5,
    })
    expect(store.get(draftAtom)).toMatchObject({ area: '', notes: '' })
  })

  it('keeps just the point when the map gave no sheet and number', async () => {
    const { deps, store, calls } = setup()
    await placeFromMap(deps, { lat: 10.8, lng: 106.7 })
    expect(calls).toEqual([])
    expect(store.get(draftAtom).place).toEqual({ lat: 10.8, lng: 106.7, label: 'Điểm đã chọn trên bản đồ' })
  })

  it('takes the parcel from a planning lookup of that point kept in the history, without asking the server', async () => {
    const { deps, store, calls } = setup()
    await addHistory({ kind: 'planning', lat: 10.8026, lng: 106.6909, label: 'Tờ 1, thửa 5', result: planningFixture })
    await placeFromMap(deps, { lat: 10.8026283, lng: 106.6909072 })
    expect(calls).toEqual([])
    expect(store.get(draftAtom).place).toMatchObject({ lat: 10.8026283, lng: 106.6909072, parcelId: '17931' })
    expect(store.get(draftAtom).area).toBe('69,7')
  })

  it('reads the sheet and parcel numbers from a search result', () => {
    expect(sheetParcelOf({ label: '24 Đường Đinh Tiên Hoàng', detail: 'Tờ 1, thửa 5, Thành phố Hồ Chí Minh' })).toEqual(
      { sheet_no: 1, parcel_no: 5 },
    )
    expect(sheetParcelOf({ label: 'Đường Đinh Tiên Hoàng', detail: 'Phường Gia An' })).toBeNull()
  })
})

describe('running a valuation', () => {
  it('returns the field errors and sends nothing when the form is not valid', async () => {
    const { deps, calls } = setup()
    expect(await runValuation(deps)).toEqual({ ok: false, errors: { place: 'Vui lòng chọn thửa đất cần định giá.' } })
    expect(calls).toEqual([])
  })

  it('uploads waiting photos, sends their ids with the facts, fetches the planning once and keeps the result in the history', async () => {
    const { deps, store, calls, uploads, photoFile } = setup({ online: false })
    chooseParcel(store, parcelFixture)
    store.set(draftAtom, (d) => ({ ...d, frontage: '4,2', frontsStreet: true, floors: '3', legal: 'so-hong' }))
    await addPhotoFiles(deps, [photoFile('a.jpg'), photoFile('b.jpg')])
    deps.isOnline = () => true
    const out = await runValuation(deps)
    expect(out.ok).toBe(true)
    expect(uploads).toHaveLength(2)
    const valuation = calls.find((c) => c.path === '/api/valuation')!
    expect(JSON.parse(String(valuation.init!.body))).toEqual({
      lat: expect.any(Number),
      lng: expect.any(Number),
      area_m2: 69.7,
      frontage_m: 4.2,
      alley_width_m: 0,
      floors: 3,
      image_ids: ['img-1', 'img-2'],
    })
    expect(calls.filter((c) => c.path.startsWith('/api/planning'))).toHaveLength(1)
    const shown = store.get(resultAtom)!
    expect(shown.record.planning?.data.road_reserves[0]?.affected_area_m2).toBe(12.5)
    expect(shown.record.photos.map((p) => p.id)).toEqual(['img-1', 'img-2'])
    expect(shown.record.facts.legal).toBe('so-hong')
    const kinds = (await listHistory()).map((e) => e.kind)
    expect(kinds.sort()).toEqual(['planning', 'valuation'])
  })

  it('queues a valuation asked offline with its photos, says so once, and runs it when the link returns', async () => {
    const { deps, store, calls, uploads, photoFile, toasts } = setup({ online: false })
    chooseParcel(store, parcelFixture)
    store.set(draftAtom, (d) => ({ ...d, frontage: '4,2', frontsStreet: true, floors: '3', legal: 'so-hong' }))
    await addPhotoFiles(deps, [photoFile('a.jpg')])
    expect(await runValuation(deps)).toEqual({ ok: false, queued: true })
    expect(await runValuation(deps)).toEqual({ ok: false, queued: true })
    expect(calls).toEqual([])
    expect(uploads).toEqual([])
    expect(store.get(photosAtom).map((p) => p.status)).toEqual(['ready'])
    expect(toasts()).toEqual([['blue', QUEUED_TEXT]])
    expect(store.get(queuedAtom)).toMatchObject({ refused: null, draft: { frontage: '4,2' } })

    const stop = await startValuationQueue(deps)
    deps.isOnline = () => true
    window.dispatchEvent(new Event('online'))
    await expect.poll(() => store.get(resultAtom)).not.toBeNull()
    stop()
    expect(uploads).toHaveLength(1)
    expect(calls.filter((c) => c.path === '/api/valuation')).toHaveLength(1)
    await expect.poll(() => store.get(queuedAtom)).toBeNull()
    expect((await listHistory('valuation')).length).toBe(1)
    await expect.poll(() => toasts().at(-1)?.[0]).toBe('green')
    expect(toasts().at(-1)?.[1]).toMatch(/^Đã định giá .*Kết quả có trong lịch sử\.$/)
  })

  it('reuses a recent planning lookup of the same parcel instead of counting another', async () => {
    const { deps, store, calls } = setup()
    chooseParcel(store, parcelFixture)
    await runValuation(deps)
    await runValuation(deps)
    expect(calls.filter((c) => c.path.startsWith('/api/valuation'))).toHaveLength(2)
    expect(calls.filter((c) => c.path.startsWith('/api/planning'))).toHaveLength(1)
    expect((await listHistory('valuation')).length).toBe(2)
  })

  it('shows the yellow EMPTY_VALUATION toast when there is no market estimate', async () => {
    const { deps, store, toasts } = setup({
      routes: (url) =>
        url.pathname === '/api/valuation'
          ? ok({ ...valuationFixture, market_estimate: null, comparables: [] })
          : undefined,
    })
    chooseParcel(store, parcelFixture)
    const out = await runValuation(deps)
    expect(out.ok).toBe(true)
    expect(toasts()).toEqual([['yellow', errorTexts.EMPTY_VALUATION]])
  })

  it('shows EMPTY_VALUATION when the server finds no parcel to value, and keeps no history', async () => {
    const { deps, store, toasts } = setup({
      routes: (url) =>
        url.pathname === '/api/valuation' ? fail('NotFound', 404, 'Không tìm thấy thửa đất.') : undefined,
    })
    chooseParcel(store, parcelFixture)
    expect(await runValuation(deps)).toEqual({
      ok: false,
      failure: { code: 'NotFound', status: 404, message: errorTexts.EMPTY_VALUATION },
    })
    expect(toasts()).toEqual([['yellow', errorTexts.EMPTY_VALUATION]])
    expect(await listHistory()).toEqual([])
    expect(store.get(resultAtom)).toBeNull()
  })

  it('still shows the valuation when the planning lookup fails, and says why beside it', async () => {
    const { deps, store } = setup({
      routes: (url) => (url.pathname === '/api/planning' ? fail('MaxUsage', 429, 'Hết lượt.') : undefined),
    })
    chooseParcel(store, parcelFixture)
    const out = await runValuation(deps)
    expect(out).toMatchObject({ ok: true, planningError: expect.stringContaining(errorTexts.MAX_USAGE) })
    expect(store.get(resultAtom)!.record.planning).toBeNull()
  })

  it('does not value while a photo failed to upload', async () => {
    const { deps, store, calls, photoFile } = setup()
    deps.Xhr = fakeXhr([], () => ({
      status: 413,
      body: { message: 'Mỗi ảnh tối đa 10 MB.', meta: { code: 'MaxFile', status: 'NG' }, data: null },
    }))
    chooseParcel(store, parcelFixture)
    await addPhotoFiles(deps, [photoFile('a.jpg')])
    const out = await runValuation(deps)
    expect(out).toEqual({
      ok: false,
      message: 'Chưa tải được tất cả ảnh lên. Hãy thử lại, hoặc bỏ ảnh lỗi rồi định giá.',
    })
    expect(calls.some((c) => c.path === '/api/valuation')).toBe(false)
  })
})

describe('a valuation asked offline', () => {
  /** Asked offline on one page: the parcel, its facts and a photo; "Định giá" queues it. */
  async function askOffline() {
    const first = setup({ online: false })
    chooseParcel(first.store, parcelFixture)
    first.store.set(draftAtom, (d) => ({ ...d, frontage: '4,2', frontsStreet: true, floors: '3', legal: 'so-hong' }))
    await addPhotoFiles(first.deps, [first.photoFile('mat-tien.jpg')])
    expect(await runValuation(first.deps)).toEqual({ ok: false, queued: true })
    return first
  }

  /** The page after a reload: a new store with an empty form, the photos put back by the outbox. */
  function reloaded(first: ReturnType<typeof setup>, opts: Parameters<typeof setup>[0] = {}) {
    const next = setup(opts)
    next.store.set(photosAtom, first.store.get(photosAtom))
    return next
  }

  it('is kept on the device through a reload and runs when the app starts online: the result in the history, one notice', async () => {
    const first = await askOffline()
    expect(await readQueued()).toMatchObject({ refused: null, draft: { frontage: '4,2', floors: '3' } })

    const next = reloaded(first)
    const stop = await startValuationQueue(next.deps)
    await expect.poll(async () => (await listHistory('valuation')).length).toBe(1)
    stop()
    await expect.poll(() => next.store.get(queuedAtom)).toBeNull()
    expect(await readQueued()).toBeNull()
    // What was asked is what was valued, although the form on the reloaded page is empty.
    const asked = next.calls.find((c) => c.path === '/api/valuation')!
    expect(JSON.parse(String(asked.init?.body))).toMatchObject({ frontage_m: 4.2, floors: 3, image_ids: ['img-1'] })
    expect(next.uploads).toHaveLength(1)
    expect(next.toasts().filter(([color]) => color === 'green')).toEqual([
      ['green', `Đã định giá ${parcelLabel(valuationFixture.parcel)}. Kết quả có trong lịch sử.`],
    ])
    expect(next.toasts().some(([, title]) => title === QUEUED_TEXT)).toBe(false)
  })

  it('waits on the device while still offline after the reload, and runs on the online event', async () => {
    const first = await askOffline()
    const next = reloaded(first, { online: false })
    const stop = await startValuationQueue(next.deps)
    expect(next.store.get(queuedAtom)).toMatchObject({ refused: null })
    expect(next.calls).toEqual([])
    next.deps.isOnline = () => true
    window.dispatchEvent(new Event('online'))
    await expect.poll(async () => (await listHistory('valuation')).length).toBe(1)
    stop()
    expect(next.calls.filter((c) => c.path === '/api/valuation')).toHaveLength(1)
  })

  it("runs only on the account it was asked on: another person's login on the same phone leaves it waiting", async () => {
    const first = await askOffline()
    const next = reloaded(first)
    next.store.set(sessionAtom, { ...next.store.get(sessionAtom), userName: 'Minh', token: 'tok-minh' })
    const stop = await startValuationQueue(next.deps)
    // The run started by the queue, waited for to its end.
    await runQueued(next.deps)
    expect(next.calls).toEqual([])
    expect(next.store.get(queuedAtom)).toMatchObject({ owner: 'Lan', refused: null })

    next.store.set(sessionAtom, { ...next.store.get(sessionAtom), userName: 'Lan', token: 'tok' })
    await expect.poll(async () => (await listHistory('valuation')).length).toBe(1)
    stop()
    expect(next.calls.filter((c) => c.path === '/api/valuation')).toHaveLength(1)
  })

  it('stays visible with the reason when the server refuses it, and runs again only when asked to', async () => {
    let limit = true
    const first = await askOffline()
    const next = reloaded(first, {
      routes: (url) =>
        url.pathname === '/api/valuation' && limit
          ? fail('MaxUsage', 429, 'Bạn đã dùng hết lượt tra cứu hôm nay.')
          : undefined,
    })
    const stop = await startValuationQueue(next.deps)
    const reason = /^Bạn đã dùng hết lượt tra cứu hôm nay\. Lượt mới có từ 00:00 ngày 02\/07\/2026\.$/
    await expect.poll(() => next.store.get(queuedAtom)?.refused).toMatch(reason)
    expect(await readQueued()).toMatchObject({
      refused: expect.stringMatching(reason),
      draft: { frontage: '4,2' },
    })
    expect(await listHistory('valuation')).toEqual([])
    // The link coming back again does not ask the server again on its own.
    window.dispatchEvent(new Event('online'))
    await Promise.resolve()
    const valuations = () => next.calls.filter((c) => c.path === '/api/valuation').length
    expect(valuations()).toBe(1)

    limit = false
    await retryQueued(next.deps)
    expect(valuations()).toBe(2)
    expect(next.store.get(queuedAtom)).toBeNull()
    expect((await listHistory('valuation')).length).toBe(1)
    stop()
  })

  it('is let go with "Bỏ yêu cầu" while the form keeps what was typed and photographed', async () => {
    const first = await askOffline()
    await dismissQueued(first.deps)
    expect(first.store.get(queuedAtom)).toBeNull()
    expect(await readQueued()).toBeNull()
    expect(first.store.get(draftAtom).frontage).toBe('4,2')
    expect(first.store.get(photosAtom)).toHaveLength(1)
  })

  it('keeps waiting when the link drops again as it runs', async () => {
    const first = await askOffline()
    const next = reloaded(first, {
      routes: (url) => {
        if (url.pathname === '/api/valuation') throw new TypeError('Failed to fetch')
        return undefined
      },
    })
    const stop = await startValuationQueue(next.deps)
    await expect.poll(() => next.calls.some((c) => c.path === '/api/valuation')).toBe(true)
    stop()
    await expect.poll(async () => (await readQueued())?.refused).toBeNull()
    expect(next.store.get(queuedAtom)).toMatchObject({ refused: null })
    expect(await listHistory('valuation')).toEqual([])
  })
})
