import { z } from 'zod/mini'

/**
 * The map's state in the address, so a view can be shared: `/demo#/{lat}/{lng}/{zoom}` as the HCMC
 * planning portal writes it, followed by `/sel/{lat},{lng}` for the point whose parcel is shown and
 * `/pin/{lat},{lng}` for a dropped pin. The hash changes as the map moves without touching the router.
 */
export type LatLngZoom = { lat: number; lng: number; zoom: number }
export type Point = { lat: number; lng: number }
export type MapUrlState = { view: LatLngZoom; selection?: Point; pin?: Point }

const MAX_ZOOM = 22

/** Six decimals are about 10 cm: enough to land in the same parcel, short enough to share. */
const coord = (v: number) => String(Number(v.toFixed(6)))
const zoomText = (v: number) => String(Number(v.toFixed(2)))

/**
 * A chosen point as a link carries it: the lookup is made at this point, so the card the sender sees
 * and the one a shared link opens give the same VN-2000 coordinates.
 */
export function linkPoint(p: Point): Point {
  return { lat: Number(p.lat.toFixed(6)), lng: Number(p.lng.toFixed(6)) }
}

export function encodeMapHash(state: MapUrlState): string {
  const { view } = state
  let hash = `#/${coord(view.lat)}/${coord(view.lng)}/${zoomText(view.zoom)}`
  if (state.selection) hash += `/sel/${coord(state.selection.lat)},${coord(state.selection.lng)}`
  if (state.pin) hash += `/pin/${coord(state.pin.lat)},${coord(state.pin.lng)}`
  return hash
}

const NUMBER = /^-?\d+(\.\d+)?$/

function readNumber(text: string | undefined, min: number, max: number): number | undefined {
  if (text === undefined || !NUMBER.test(text)) return undefined
  const n = Number(text)
  return n >= min && n <= max ? n : undefined
}

function readPoint(text: string | undefined): Point | undefined {
  const [lat, lng, ...rest] = (text ?? '').split(',')
  if (rest.length > 0) return undefined
  const la = readNumber(lat, -90, 90)
  const ln = readNumber(lng, -180, 180)
  return la === undefined || ln === undefined ? undefined : { lat: la, lng: ln }
}

/** The state in a hash, or undefined when the hash is not a map view (a broken link opens the default view). */
export function decodeMapHash(hash: string): MapUrlState | undefined {
  const parts = hash.replace(/^#/, '').replace(/^\//, '').split('/')
  const lat = readNumber(parts[0], -90, 90)
  const lng = readNumber(parts[1], -180, 180)
  const zoom = readNumber(parts[2], 0, MAX_ZOOM)
  if (lat === undefined || lng === undefined || zoom === undefined) return undefined
  const state: MapUrlState = { view: { lat, lng, zoom } }
  for (let i = 3; i + 1 < parts.length; i += 2) {
    const point = readPoint(parts[i + 1])
    if (!point) continue
    if (parts[i] === 'sel') state.selection = point
    else if (parts[i] === 'pin') state.pin = point
  }
  return state
}

/** `/demo?lat=&lng=&z=`: a typed way for other pages to open the map at a place; a malformed value is a 404. */
export const mapSearch = z.object({
  lat: z.optional(z.number().check(z.gte(-90), z.lte(90))),
  lng: z.optional(z.number().check(z.gte(-180), z.lte(180))),
  z: z.optional(z.number().check(z.gte(0), z.lte(MAX_ZOOM))),
})
export type MapSearch = z.infer<typeof mapSearch>

/** Where the map opens: the hash wins (it is what a shared link carries), then the search params. */
export function initialState(hash: string, search: MapSearch): MapUrlState | undefined {
  const fromHash = decodeMapHash(hash)
  if (fromHash) return fromHash
  if (search.lat !== undefined && search.lng !== undefined)
    return { view: { lat: search.lat, lng: search.lng, zoom: search.z ?? 17 } }
  return undefined
}
