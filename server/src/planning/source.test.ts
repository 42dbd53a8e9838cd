import { describe, expect, it } from 'vitest'
import { meridianOf } from './source.ts'

describe('the meridian a lookup shows VN-2000 on', () => {
  it("is the dataset's own provincial grid, with or without the file's own datum shift", () => {
    expect(meridianOf('vn2000:107.75', 106.7)).toBe(107.75)
    expect(meridianOf('vn2000:105.75 +towgs84=-191.90441429,-39.30318279,-111.45032835', 108.2)).toBe(105.75)
  })

  it("is the province's for WGS84 and VN-2000 / UTM datasets, which surveyors do not read", () => {
    expect(meridianOf('EPSG:3405', 106.7, 'TP.HCM')).toBe(105.75)
    expect(meridianOf('EPSG:4326', 108.2, 'Đà Nẵng')).toBe(107.75)
  })
})
