import type { ApiClient } from '../../lib/api/client.ts'
import type { Parcel, ParcelRef, PlanningData, SearchResult } from '#core/contract/lookups.ts'
import { errorTexts } from '../../lib/errors.ts'
import { admitFiles } from '../../lib/images/limits.ts'
import { ImageProcessingError, processImage, type ProcessedImage } from '../../lib/images/process.ts'
import type { Store } from '../../lib/store.ts'
import { isSessionValid, sessionAtom } from '../auth/index.ts'
import * as history from '../history/index.ts'
import { pushToast } from '../notifications/index.ts'
import type { ValuationApi } from './api.ts'
import { draftAtom, photosAtom, queuedAtom, resultAtom } from './atoms.ts'
import { writeQueued } from './queue-store.ts'
import { toFieldText, validateDraft, valuationRequest, type DraftErrors, type ValuationDraft } from './form.ts'
import { parcelContains, pointInParcel } from '../../lib/geo/parcel-point.ts'
import { newPhoto, photosToUpload, updatePhoto, type PhotoItem } from './photos.ts'
import type { PlaceRef, ValuationRecord } from '../../lib/valuation-record.ts'
import { uploadName, uploadPhoto, type XhrLike } from './upload.ts'

/** A planning lookup made this recently for the same parcel is shown again instead of counting another. */
export const PLANNING_REUSE_MS = 30 * 24 * 3600_000

export type ValuationDeps = {
  store: Store
  /** The app's API client (uploads go through it directly). */
  client: ApiClient
  api: ValuationApi
  process?: (file: File, opts: { keepGps: boolean }) => Promise<ProcessedImage>
  isOnline?: () => boolean
  now?: () => number
  /** The XMLHttpRequest uploads use; tests give a stand-in. */
  Xhr?: new () => XhrLike
}

export function parcelLabel(p: Pick<Parcel, 'address' | 'sheet_no' | 'parcel_no'>): string {
  const ref = `Tờ ${p.sheet_no}, thửa ${p.parcel_no}`
  return p.address ? `${p.address} (${ref})` : ref
}

/** The draft for a newly chosen parcel: its facts filled in, the previous parcel's facts cleared. */
export function draftForParcel(
  draft: ValuationDraft,
  parcel: Parcel,
  point?: { lat: number; lng: number },
): ValuationDraft {
  const inside = point && parcelContains(parcel, point.lat, point.lng) ? point : (pointInParcel(parcel) ?? point)
  if (!inside) return draft
  const place: PlaceRef = {
    lat: inside.lat,
    lng: inside.lng,
    label: parcelLabel(parcel),
    parcelId: parcel.id,
    sheet: parcel.sheet_no,
    parcel: parcel.parcel_no,
  }
  return {
    ...draft,
    place,
    area: toFieldText(parcel.area_m2),
    frontage: '',
    alley: '',
    frontsStreet: false,
    floors: '',
    legal: 'chua-ro',
    notes: '',
  }
}

/** Sets the parcel to value; the result of the previous one goes away. */
export function chooseParcel(store: Store, parcel: Parcel, point?: { lat: number; lng: number }): void {
  store.set(draftAtom, (d) => draftForParcel(d, parcel, point))
  store.set(resultAtom, null)
}

/**
 * Sets a place whose facts are not known yet (a point on the map, a parcel found by its tờ/thửa, which
 * says where it is and nothing more without a counted lookup): the valuation reads them from the parcel
 * there. The previous parcel's facts and result go away.
 */
export function choosePlace(store: Store, place: PlaceRef): void {
  store.set(draftAtom, (d) => ({
    ...d,
    place,
    area: '',
    frontage: '',
    alley: '',
    frontsStreet: false,
    floors: '',
    legal: 'chua-ro',
    notes: '',
  }))
  store.set(resultAtom, null)
}

/** The place of a parcel found by its tờ/thửa (see choosePlace). */
export function placeOfRef(ref: ParcelRef): PlaceRef {
  return {
    lat: ref.lat,
    lng: ref.lng,
    label: parcelLabel(ref),
    parcelId: ref.id,
    sheet: ref.sheet_no,
    parcel: ref.parcel_no,
  }
}

/** "Tờ 1, thửa 5, …" in a search result's label or detail → the numbers, for the tờ/thửa lookup. */
export function sheetParcelOf(
  hit: Pick<SearchResult, 'label' | 'detail'>,
): { sheet_no: number; parcel_no: number } | null {
  const m = /Tờ (\d+), thửa (\d+)/.exec(`${hit.label} ${hit.detail}`)
  return m ? { sheet_no: Number(m[1]), parcel_no: Number(m[2]) } : null
}

/**
 * Opens the screen on a point from the map (?lat=&lng=, with sheet/parcel when the map knew them): the
 * parcel's facts come from a planning lookup of that parcel in the history. Otherwise only the point
 * (and the tờ/thửa the map knew) is known, and the server finds the parcel when the valuation runs.
 */
export async function placeFromMap(
  deps: ValuationDeps,
  at: { lat: number; lng: number; sheet?: number; parcel?: number },
): Promise<void> {
  const { store } = deps
  const current = store.get(draftAtom).place
  if (current && Math.abs(current.lat - at.lat) < 1e-7 && Math.abs(current.lng - at.lng) < 1e-7) return
  // The map's own planning lookup of this parcel, when the history has it, knows the parcel already.
  const looked = (await history.list('planning'))
    .map((e) => e.result.parcel)
    .find((p) => p !== null && parcelContains(p, at.lat, at.lng))
  if (looked) return chooseParcel(store, looked, at)
  const known = at.sheet !== undefined && at.parcel !== undefined
  choosePlace(store, {
    lat: at.lat,
    lng: at.lng,
    label: known ? `Tờ ${at.sheet}, thửa ${at.parcel}` : 'Điểm đã chọn trên bản đồ',
    sheet: at.sheet,
    parcel: at.parcel,
  })
}

/** Logged in and online: photos may go up and a valuation may be asked. */
export const canSendNow = (deps: ValuationDeps) =>
  isSessionValid(deps.store.get(sessionAtom), (deps.now ?? Date.now)()) &&
  (deps.isOnline ?? (() => navigator.onLine !== false))()

let uploading: Promise<boolean> | null = null

/**
 * Sends the photos not yet on the server, one at a time (a phone's upload bandwidth is small), each with
 * its own progress and idempotency key. True when every photo is uploaded.
 */
export function uploadPending(deps: ValuationDeps): Promise<boolean> {
  // A second call while one runs waits for it and then sends whatever it did not.
  const run = async (): Promise<boolean> => {
    const { store } = deps
    // A photo the outbox was sending when asked and gave back unsent (a dropped connection) is sent here.
    for (let round = 0; round < 2; round += 1) {
      await sendEach(deps, photosToUpload(store.get(photosAtom)))
      await photosSettled(store)
      if (!store.get(photosAtom).some((p) => p.status === 'ready' && p.blob !== null)) break
    }
    return store.get(photosAtom).every((p) => p.status === 'uploaded')
  }
  const next = (uploading ?? Promise.resolve(true)).then(run, run)
  uploading = next.finally(() => {
    if (uploading === next) uploading = null
  })
  return next
}

/** Resolves once no photo is being sent, by the form or by the outbox (which shows its sending on the same tiles). */
function photosSettled(store: Store): Promise<void> {
  return new Promise((done) => {
    const check = () => {
      if (store.get(photosAtom).some((p) => p.status === 'uploading')) return
      stop()
      done()
    }
    const stop = store.sub(photosAtom, check)
    check()
  })
}

async function sendEach(deps: ValuationDeps, photos: PhotoItem[]): Promise<void> {
  const { store } = deps
  for (const photo of photos) {
    // Removed meanwhile, or being sent (or sent) by the outbox since the list was taken.
    const current = store.get(photosAtom).find((p) => p.key === photo.key)
    if (!current || current.status === 'uploading' || current.status === 'uploaded') continue
    store.set(photosAtom, (list) => updatePhoto(list, photo.key, { status: 'uploading', progress: 0, error: null }))
    const res = await uploadPhoto(
      deps.client,
      { blob: photo.blob!, name: uploadName(photo.name, photo.type), idempotencyKey: photo.idempotencyKey },
      {
        onProgress: (loaded, total) =>
          store.set(photosAtom, (list) => updatePhoto(list, photo.key, { progress: total > 0 ? loaded / total : 0 })),
        Xhr: deps.Xhr,
      },
    )
    store.set(photosAtom, (list) =>
      res.ok && res.data[0]
        ? updatePhoto(list, photo.key, { status: 'uploaded', progress: 1, uploadId: res.data[0].id })
        : updatePhoto(list, photo.key, {
            status: 'failed',
            error: res.ok ? errorTexts.UNKNOWN : res.message || errorTexts.UNKNOWN,
          }),
    )
  }
}

/**
 * Adds picked or photographed files: at most 4 in all (a fifth is refused with exactly MAX_FILE),
 * only images within the size limit, each prepared on the device before it is sent. Returns every
 * message to show beside the photos; `onRefused` hears the refusals before the photos are prepared.
 */
export async function addPhotoFiles(
  deps: ValuationDeps,
  files: readonly File[],
  onRefused?: (messages: string[]) => void,
): Promise<string[]> {
  const { store } = deps
  const { admitted, messages } = admitFiles(store.get(photosAtom).length, files)
  // Refusals are known at once; preparing large photos takes a moment, so they are told first.
  if (messages.length > 0) onRefused?.([...messages])
  const keepGps = store.get(draftAtom).keepGps
  const process = deps.process ?? ((f, o) => processImage(f, o))
  const added = admitted.map((file) => ({ file, photo: newPhoto(file.name) }))
  store.set(photosAtom, (list) => [...list, ...added.map((a) => a.photo)])
  await Promise.all(
    added.map(async ({ file, photo }) => {
      try {
        const out = await process(file, { keepGps })
        store.set(photosAtom, (list) =>
          updatePhoto(list, photo.key, {
            status: 'ready',
            blob: out.blob,
            type: out.type,
            width: out.width,
            height: out.height,
            thumbnail: out.thumbnail,
            gps: out.gps,
          }),
        )
      } catch (err) {
        store.set(photosAtom, (list) => list.filter((p) => p.key !== photo.key))
        messages.push(err instanceof ImageProcessingError ? err.message : `Không xử lý được ảnh "${file.name}".`)
      }
    }),
  )
  // Photos go up while the user fills in the form; logged out or offline they wait for "Định giá".
  if (canSendNow(deps) && photosToUpload(store.get(photosAtom)).length > 0) void uploadPending(deps)
  return messages
}

/** A planning result for this parcel already on the device and recent enough to show again. */
export async function storedPlanning(
  parcelId: string,
  now: number,
): Promise<{ data: PlanningData; at: number } | null> {
  const hit = (await history.list('planning')).find(
    (e) => e.result.parcel?.id === parcelId && now - e.at < PLANNING_REUSE_MS,
  )
  return hit ? { data: hit.result, at: hit.at } : null
}

export type RunOutcome =
  | { ok: true; record: ValuationRecord; historyId: string; planningError: string | null }
  | {
      ok: false
      errors?: DraftErrors
      message?: string
      queued?: true
      /** The valuation call's failure: the server's refusal, or no answer at all (code Offline, Network…). */
      failure?: { code: string; status: number; message: string }
    }

/** Said once when "Định giá" is pressed offline. */
export const QUEUED_TEXT =
  'Đang ngoại tuyến: yêu cầu định giá đã được xếp hàng cùng ảnh và sẽ chạy khi có mạng; kết quả sẽ có trong lịch sử.'

/**
 * "Định giá" pressed offline: the request is kept on the device (queue-store.ts) with the form as it
 * is, and its photos as they are (nothing is tried, so nothing turns red); queue.ts runs it once the
 * link returns, after a reload or a restart too. The person is told once now, and once more when the
 * result is in the history. Pressed again while it waits, the request is brought up to date silently.
 */
async function queueValuation(deps: ValuationDeps, draft: ValuationDraft): Promise<RunOutcome> {
  const { store } = deps
  const waiting = store.get(queuedAtom)
  const queued = { at: (deps.now ?? Date.now)(), draft, refused: null, owner: store.get(sessionAtom).userName }
  await writeQueued(queued)
  store.set(queuedAtom, queued)
  if (!waiting || waiting.refused !== null) pushToast(store, 'info', QUEUED_TEXT)
  return { ok: false, queued: true }
}

/**
 * "Định giá": checks the form, sends any photos still waiting, asks for the valuation (one counted
 * lookup), then the parcel's planning — reused from the history when this parcel was looked up
 * recently, otherwise fetched once (a second counted lookup) — and keeps the result in the history.
 * `asked` is a queued request's form (queue.ts); otherwise the form on screen is valued.
 */
export async function runValuation(deps: ValuationDeps, asked?: ValuationDraft): Promise<RunOutcome> {
  const { store } = deps
  const now = deps.now ?? Date.now
  const draft = asked ?? store.get(draftAtom)
  const checked = validateDraft(draft)
  if (!checked.ok) return { ok: false, errors: checked.errors }
  if (store.get(photosAtom).some((p) => p.status === 'processing'))
    return { ok: false, message: 'Ảnh đang được xử lý, vui lòng đợi trong giây lát.' }
  if (!(deps.isOnline ?? (() => navigator.onLine !== false))()) return queueValuation(deps, draft)
  if (photosToUpload(store.get(photosAtom)).length > 0 || store.get(photosAtom).some((p) => p.status === 'uploading')) {
    const sent = await uploadPending(deps)
    if (!sent) return { ok: false, message: 'Chưa tải được tất cả ảnh lên. Hãy thử lại, hoặc bỏ ảnh lỗi rồi định giá.' }
  }
  const photos: PhotoItem[] = store.get(photosAtom)
  const res = await deps.api.valuate(
    valuationRequest(
      checked.place,
      checked.facts,
      photos.map((p) => p.uploadId!),
    ),
  )
  if (!res.ok) return { ok: false, failure: { code: res.code, status: res.status, message: res.message } }
  const data = res.data
  if (!data.market_estimate) pushToast(store, 'warning', errorTexts.EMPTY_VALUATION)

  let planning = await storedPlanning(data.parcel.id, now())
  let planningError: string | null = null
  if (!planning) {
    const p = await deps.api.planning(checked.place.lat, checked.place.lng)
    if (p.ok) {
      planning = { data: p.data, at: now() }
      await history.add({
        kind: 'planning',
        at: planning.at,
        lat: checked.place.lat,
        lng: checked.place.lng,
        label: parcelLabel(p.data.parcel ?? data.parcel),
        result: p.data,
      })
    } else {
      planningError = p.code === 'NotFound' ? errorTexts.EMPTY_ESTATE : p.message || errorTexts.UNKNOWN
    }
  }

  const place: PlaceRef = {
    ...checked.place,
    label: parcelLabel(data.parcel),
    parcelId: data.parcel.id,
    sheet: data.parcel.sheet_no,
    parcel: data.parcel.parcel_no,
  }
  const record: ValuationRecord = {
    place,
    facts: checked.facts,
    data,
    planning,
    photos: photos.map((p) => ({
      id: p.uploadId,
      thumbnail: p.thumbnail,
      width: p.width,
      height: p.height,
      gps: p.gps,
    })),
  }
  const at = now()
  const saved = await history.add({
    kind: 'valuation',
    at,
    lat: place.lat,
    lng: place.lng,
    label: place.label,
    result: record,
  })
  store.set(resultAtom, { record, historyId: saved.id, at, stored: false })
  // Fill in what the server knew when the user left it empty, e.g. the area of a parcel picked on the map.
  store.set(draftAtom, (d) =>
    d.place && d.place.lat === place.lat && d.place.lng === place.lng
      ? { ...d, place, area: d.area || toFieldText(data.parcel.area_m2) }
      : d,
  )
  return { ok: true, record, historyId: saved.id, planningError }
}
