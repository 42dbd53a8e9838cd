// @vitest-environment node
// GDAL (WebAssembly) reads the DXF back as CAD and GIS programs would; it runs in Node, not in jsdom.
import { describe, expect, it } from 'vitest'
import { fromVn2000 } from '#core/geo/vn2000.ts'
import { readDxfWithGdal } from '../../../tests/support/gdal-dxf.ts'
import { cornersCsv, crsLabel, outlineDxf } from './exports.ts'
import { outlineOf, type LngLat } from './geometry.ts'

const M = 105.75
const ring: LngLat[] = (
  [
    [1_194_020, 602_000],
    [1_194_020, 602_012.5],
    [1_194_000, 602_010],
    [1_194_000, 602_000],
  ] as const
).map(([x, y]) => {
  const p = fromVn2000(x, y, M)
  return [p.lng, p.lat]
})
const outline = outlineOf(ring, M)!

describe('corner table as CSV', () => {
  it('has a header naming the meridian, one row per corner with X, Y and the next side, and a BOM', () => {
    const csv = cornersCsv(outline)
    expect(csv.startsWith('\uFEFF')).toBe(true)
    const rows = csv.slice(1).trim().split('\r\n')
    expect(rows[0]).toBe(`Điểm,X (m) ${crsLabel(M)},Y (m) ${crsLabel(M)},Cạnh tới điểm sau (m)`)
    expect(rows.slice(1)).toEqual([
      '1,1194020.000,602000.000,12.50',
      '2,1194020.000,602012.500,20.16',
      '3,1194000.000,602010.000,10.00',
      '4,1194000.000,602000.000,20.00',
    ])
  })
  it('names the meridian in degrees and minutes', () => {
    expect(crsLabel(105.75)).toBe('VN-2000 KTT 105°45′ múi 3°')
    expect(crsLabel(107)).toBe('VN-2000 KTT 107°00′ múi 3°')
  })
})

describe('outline as DXF, read back with GDAL', () => {
  const ctx = {
    title: 'Thửa 34, tờ 12 — Phường Gia Định',
    address: '24 Đường Đinh Tiên Hoàng, Phường Gia Định, Thành phố Hồ Chí Minh',
    neighbours: [
      { id: 'n', sheetNo: 12, parcelNo: 35, side: 'Bắc' },
      { id: 'e', sheetNo: 12, parcelNo: 36, side: 'Đông' },
    ],
    street: {
      name: 'Hẻm 261 Điện Biên Phủ',
      distanceM: 3,
      segment: [
        { x: 1_193_997, y: 601_990 },
        { x: 1_193_997, y: 602_030 },
      ] as [{ x: number; y: number }, { x: number; y: number }],
    },
  }
  const read = readDxfWithGdal(outlineDxf(outline, ctx))
  const on = async (layer: string) => (await read).entities.filter((e) => e.layer === layer)

  it('opens in GDAL’s DXF driver as one closed line through the corners, drawing X = easting and Y = northing', async () => {
    expect((await read).driver).toBe('DXF')
    const [ranh, ...more] = await on('RANH_THUA')
    expect(more).toEqual([])
    const coords = (ranh!.geometry!.coordinates as number[][]).map(([x, y]) => [x, y])
    const corners = outline.corners.map((c) => [Number(c.y.toFixed(3)), Number(c.x.toFixed(3))])
    expect(coords).toEqual([...corners, corners[0]])
    expect(await on('DIEM')).toHaveLength(4)
  })

  it('labels each corner and side', async () => {
    expect((await on('SO_HIEU_DIEM')).map((t) => t.text)).toEqual(['1', '2', '3', '4'])
    expect((await on('CANH')).map((t) => t.text)).toEqual(['12.50', '20.16', '10.00', '20.00'])
  })

  it('keeps the Vietnamese of the title, the address, the neighbours, the street and the coordinate system', async () => {
    expect((await on('GHI_CHU')).map((t) => t.text)).toEqual([
      'Thửa 34, tờ 12 — Phường Gia Định',
      'VN-2000 KTT 105°45′ múi 3°, S = 225.0 m²',
    ])
    expect((await on('DIA_CHI')).map((t) => t.text)).toEqual([ctx.address])
    expect((await on('THUA_KE')).map((t) => t.text)).toEqual(['Thửa 35, tờ 12', 'Thửa 36, tờ 12'])
    const road = await on('DUONG')
    expect(road.map((t) => t.text ?? t.geometry?.type)).toEqual(['LineString', 'Hẻm 261 Điện Biên Phủ'])
  })

  it('writes each neighbour on its side of the parcel and the street’s name on its line', async () => {
    const [north, east] = (await on('THUA_KE')).map((t) => t.geometry!.coordinates as number[])
    const mid = { e: (602_000 + 602_012.5) / 2, n: (1_194_000 + 1_194_020) / 2 }
    expect(north![1]! - mid.n).toBeGreaterThan(10)
    expect(Math.abs(north![0]! - mid.e)).toBeLessThan(1)
    expect(east![0]! - mid.e).toBeGreaterThan(10)
    const name = (await on('DUONG'))[1]!.geometry!.coordinates as number[]
    expect(name[1]).toBeCloseTo(1_193_997, 3)
  })
})
