import type { Database } from '../db/index.ts'
import { loadBoundaries } from '../places/boundaries.ts'
import { testDb } from './test-app.ts'

let loaded: Promise<Database> | undefined

/** Provinces whose every ward the server tests load; the rest of the country stays out of the shared database. */
export const TEST_PROVINCES = ['Thành phố Hồ Chí Minh', 'Thành phố Hà Nội', 'Thành phố Đà Nẵng']
/** Single wards elsewhere that tests look up: a mountain commune at the northern tip and an island special zone. */
export const TEST_WARDS = ['Xã Lũng Cú', 'Đặc khu Trường Sa']

/**
 * The shared test database with part of the shipped boundaries in it: the 34 provinces, every ward of
 * TEST_PROVINCES and TEST_WARDS, and the old → new rules of those wards. Loaded at most once per run.
 */
export function boundariesLoaded(): Promise<Database> {
  loaded ??= (async () => {
    const db = await testDb()
    await loadBoundaries(db, {
      only: (u) => u.level === 'province' || TEST_PROVINCES.includes(u.province) || TEST_WARDS.includes(u.name),
    })
    return db
  })()
  return loaded
}
