import { describe, expect, it } from 'vitest'
import { sheetAndParcel, valuationSearch } from './search.ts'

describe('valuation search params', () => {
  it('takes the map’s point with the sheet and parcel numbers', () => {
    const s = valuationSearch.parse({ lat: 10.8026, lng: 106.6909, sheet: 1, parcel: 5 })
    expect(sheetAndParcel(s)).toEqual({ sheet: 1, parcel: 5 })
  })

  it('accepts a parcel named by its id, using only the point then', () => {
    const s = valuationSearch.parse({ lat: 10.8026, lng: 106.6909, parcel: '17931' })
    expect(s.parcel).toBe('17931')
    expect(sheetAndParcel(s)).toBeNull()
  })

  it('refuses coordinates out of range, which the router shows as a 404', () => {
    expect(valuationSearch.safeParse({ lat: 91, lng: 106 }).success).toBe(false)
    expect(valuationSearch.safeParse({ lat: '10,8', lng: 106 }).success).toBe(false)
  })
})
