import { atom } from 'jotai'
import { clear as idbClear, createStore, del, entries, set, type UseStore } from 'idb-keyval'
import type { Store } from '../../lib/store.ts'
import { storageKeys } from '../../lib/storage-keys.ts'
import type { MeasureKind } from './engine/measure.ts'

/**
 * A measurement the user named and kept on the device: its shape as WGS84 [lng, lat] points (a polygon's
 * ring without its closing point), and its figures as measured on the ellipsoid when it was saved.
 */
export type SavedMeasure = {
  id: string
  name: string
  kind: MeasureKind
  points: [number, number][]
  lengthM: number
  areaM2: number
  sides: number[]
  text: string
  /** When it was saved (ms since 1970). */
  at: number
}

let db: UseStore | undefined
const store = () => (db ??= createStore(storageKeys.measuresDb, 'measures'))

const oldestFirst = (a: SavedMeasure, b: SavedMeasure) => a.at - b.at || (a.id < b.id ? -1 : 1)

/** The saved measurements, oldest first; null until they are read from the device. */
export const savedMeasuresAtom = atom<SavedMeasure[] | null>(null)

/** Reads the saved measurements into the atom (once per page; later changes go through the functions below). */
export async function loadSavedMeasures(s: Store): Promise<void> {
  if (s.get(savedMeasuresAtom) !== null) return
  const rows = await entries<string, SavedMeasure>(store())
  s.set(savedMeasuresAtom, rows.map(([, m]) => m).sort(oldestFirst))
}

const replace = (s: Store, m: SavedMeasure) =>
  s.set(savedMeasuresAtom, [...(s.get(savedMeasuresAtom) ?? []).filter((o) => o.id !== m.id), m].sort(oldestFirst))

/** Keeps a measurement (a new one, a renamed one, or one put back after its deletion was undone). */
export async function saveMeasure(s: Store, m: SavedMeasure): Promise<void> {
  await set(m.id, m, store())
  replace(s, m)
}

export async function removeMeasure(s: Store, id: string): Promise<void> {
  await del(id, store())
  s.set(
    savedMeasuresAtom,
    (s.get(savedMeasuresAtom) ?? []).filter((m) => m.id !== id),
  )
}

/** Forgets every saved measurement (the device cleared at logout). */
export async function clearSavedMeasures(s: Store): Promise<void> {
  await idbClear(store())
  s.set(savedMeasuresAtom, [])
}

/** The name offered for a new measurement: "Diện tích 3", "Chiều dài 1", counting those of its kind. */
export function defaultName(kind: MeasureKind, saved: readonly SavedMeasure[]): string {
  const word = kind === 'area' ? 'Diện tích' : 'Chiều dài'
  return `${word} ${saved.filter((m) => m.kind === kind).length + 1}`
}
