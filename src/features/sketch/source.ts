import type { PlanningData } from '#core/contract/lookups.ts'
import { autoMeridian } from '#core/geo/provinces.ts'
import type { Bbox } from '#core/offline/tile-grid.ts'
import { list, storedPlanningAt } from '../history/index.ts'
import { outerRing, outlineOf, type Outline } from './geometry.ts'
import { nearestStreet, neighboursOf, type NearStreet, type Neighbour } from './neighbours.ts'
import { parcelAt, parcelsAround, streetsAround, tilePrecisionM, wholeParcelIn } from './tiles.ts'

/** Which parcel to sketch: its id and/or a point inside it. */
export type SketchQuery = { parcel?: string; lat?: number; lng?: number }

export type SketchSubject = {
  parcelId: string | null
  sheetNo: number | null
  parcelNo: number | null
  address: string
  place: string
  registeredAreaM2: number | null
  landUse: string
  outline: Outline
  /** A stored lookup (exact outline) or the saved map tiles (outline simplified by up to `precisionM`). */
  origin: { kind: 'history'; at: number } | { kind: 'tiles'; precisionM: number }
  /** Undefined while not read yet; null when no parcel tiles could be read here (offline outside saved and recently viewed areas). */
  neighbours: Neighbour[] | null | undefined
  street: NearStreet | null | undefined
}

export type SketchResult = { ok: true; subject: SketchSubject } | { ok: false; reason: 'not-found' | 'no-outline' }

const boxOf = (o: Outline, marginDeg = 0.0003): Bbox => {
  const lngs = o.corners.map((c) => c.lng)
  const lats = o.corners.map((c) => c.lat)
  return [
    Math.min(...lngs) - marginDeg,
    Math.min(...lats) - marginDeg,
    Math.max(...lngs) + marginDeg,
    Math.max(...lats) + marginDeg,
  ]
}

type StoredParcel = { data: PlanningData & { parcel: NonNullable<PlanningData['parcel']> }; at: number }

/** A stored lookup of the parcel; one made where no parcel was found has no outline to sketch. */
async function storedFor(q: SketchQuery): Promise<StoredParcel | null> {
  const e =
    q.lat !== undefined && q.lng !== undefined
      ? await storedPlanningAt({ lat: q.lat, lng: q.lng }, q.parcel)
      : q.parcel
        ? (await list('planning')).find((x) => x.result.parcel?.id === q.parcel)
        : undefined
  const parcel = e?.result.parcel
  return e && parcel ? { data: { ...e.result, parcel }, at: e.at } : null
}

/**
 * The parcel to sketch, without counting a lookup: from the lookup history when it is there (the exact
 * outline and the dataset's meridian), else from the parcel tiles of a saved or recently viewed area.
 * Neighbours and street come separately (`withSurroundings`), as they need tiles and may take longer.
 */
export async function loadSketch(q: SketchQuery, signal?: AbortSignal): Promise<SketchResult> {
  const stored = await storedFor(q)
  if (!stored) return fromTiles(q, signal)
  const { parcel, location } = stored.data
  const ring = outerRing(parcel.geometry)
  const outline = ring && outlineOf(ring, location.vn2000.zone_meridian)
  if (!outline) return { ok: false, reason: 'no-outline' }
  return {
    ok: true,
    subject: {
      parcelId: parcel.id,
      sheetNo: parcel.sheet_no,
      parcelNo: parcel.parcel_no,
      address: parcel.address,
      // The address usually ends with the ward already: name each place once.
      place: [parcel.ward, parcel.district, parcel.province].filter((p) => p && !parcel.address.includes(p)).join(', '),
      registeredAreaM2: parcel.area_m2,
      landUse: parcel.land_use.map((u) => `${u.code} (${u.name})`).join(', '),
      outline,
      origin: { kind: 'history', at: stored.at },
      neighbours: undefined,
      street: undefined,
    },
  }
}

/** The subject with its neighbours and street read from the tiles around it. */
export async function withSurroundings(subject: SketchSubject, signal?: AbortSignal): Promise<SketchSubject> {
  const around = subject.neighbours === undefined ? await parcelsAround(boxOf(subject.outline), signal) : null
  const streets = subject.street === undefined ? await streetsAround(boxOf(subject.outline, 0.0005), signal) : []
  return {
    ...subject,
    neighbours:
      subject.neighbours !== undefined
        ? subject.neighbours
        : around
          ? neighboursOf(
              subject.outline,
              subject.parcelId,
              around.tiles.flatMap((t) => t.parcels),
            )
          : null,
    street: subject.street !== undefined ? subject.street : nearestStreet(subject.outline, streets),
  }
}

async function fromTiles(q: SketchQuery, signal?: AbortSignal): Promise<SketchResult> {
  if (q.lat === undefined || q.lng === undefined) return { ok: false, reason: 'not-found' }
  const { lat, lng } = q
  const d = 0.0006
  const around = await parcelsAround([lng - d, lat - d, lng + d, lat + d], signal)
  const hit =
    around &&
    (q.parcel
      ? around.tiles.flatMap((t) => t.parcels).find((p) => p.id === q.parcel)
      : parcelAt(around.tiles, lat, lng))
  if (!around || !hit) return { ok: false, reason: 'not-found' }
  const whole = wholeParcelIn(around.tiles, hit.id)
  const meridian = autoMeridian(lat, lng).meridian
  const outline = whole && outlineOf(whole.ring, meridian)
  if (!outline) return { ok: false, reason: 'no-outline' }
  return {
    ok: true,
    subject: {
      parcelId: hit.id,
      sheetNo: hit.sheetNo,
      parcelNo: hit.parcelNo,
      address: '',
      place: '',
      registeredAreaM2: null,
      landUse: '',
      outline,
      origin: { kind: 'tiles', precisionM: tilePrecisionM(around.z, lat) },
      neighbours: neighboursOf(
        outline,
        hit.id,
        around.tiles.flatMap((t) => t.parcels),
      ),
      street: undefined,
    },
  }
}
