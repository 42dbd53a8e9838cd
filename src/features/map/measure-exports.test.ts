// @vitest-environment node
// GDAL (WebAssembly) reads the DXF back as CAD and GIS programs would; it runs in Node, not in jsdom.
import { describe, expect, it, vi } from 'vitest'
// The sketch's public file, which the exports share, brings the app's toasts, kept in localStorage.
vi.hoisted(() => {
  const kept = new Map<string, string>()
  globalThis.localStorage ??= {
    getItem: (k: string) => kept.get(k) ?? null,
    setItem: (k: string, v: string) => void kept.set(k, v),
    removeItem: (k: string) => void kept.delete(k),
    clear: () => kept.clear(),
    key: (i: number) => [...kept.keys()][i] ?? null,
    get length() {
      return kept.size
    },
  }
})
import { fromVn2000 } from '#core/geo/vn2000.ts'
import { readDxfWithGdal } from '../../../tests/support/gdal-dxf.ts'
import { measuresCsv, measuresDxf, measuresGeoJson } from './measure-exports.ts'
import type { SavedMeasure } from './saved-measures.ts'

// In Thành phố Hồ Chí Minh, whose VN-2000 meridian is 105°45′: a 20 × 10 m plot and a 30 m line, given in VN-2000.
const M = 105.75
const at = (x: number, y: number): [number, number] => {
  const p = fromVn2000(x, y, M)
  return [p.lng, p.lat]
}
const plot: SavedMeasure = {
  id: 'a',
  name: 'Lô đất "nhà ông Tư", phía sau',
  kind: 'area',
  points: [at(1_194_000, 602_000), at(1_194_000, 602_010), at(1_194_020, 602_010), at(1_194_020, 602_000)],
  lengthM: 60,
  areaM2: 200,
  sides: [10, 20, 10, 20],
  text: '200 m² · chu vi 60 m',
  at: Date.UTC(2026, 10, 27, 3, 0, 0),
}
const line: SavedMeasure = {
  id: 'b',
  name: 'Mặt tiền hẻm',
  kind: 'length',
  points: [at(1_194_000, 601_990), at(1_194_030, 601_990)],
  lengthM: 30,
  areaM2: 0,
  sides: [30],
  text: '30 m',
  at: Date.UTC(2026, 10, 27, 4, 0, 0),
}

describe('saved measurements as files', () => {
  it('writes CSV with Vietnamese headers, a BOM, and each shape as WKT in WGS84 and in VN-2000', () => {
    const csv = measuresCsv([plot, line])
    expect(csv.startsWith('\uFEFF')).toBe(true)
    const [head, a, b] = csv.slice(1).trim().split('\r\n')
    expect(head).toBe(
      'Tên,Loại,Chiều dài / chu vi (m),Diện tích (m²),Các cạnh (m),WKT WGS84 (kinh độ vĩ độ),WKT VN-2000 KTT 105°45′ múi 3° (Y X),Thời điểm lưu',
    )
    expect(a).toMatch(
      /^"Lô đất ""nhà ông Tư"", phía sau",diện tích,60\.000,200\.000,10\.00 20\.00 10\.00 20\.00,"POLYGON \(\(106\.\d{7} 10\.\d{7}, /,
    )
    expect(a).toContain(
      '"POLYGON ((602000.000 1194000.000, 602010.000 1194000.000, 602010.000 1194020.000, 602000.000 1194020.000, 602000.000 1194000.000))"',
    )
    expect(a!.endsWith(',2026-11-27T03:00:00.000Z')).toBe(true)
    expect(b).toContain(',chiều dài,30.000,,30.00,"LINESTRING (')
    expect(b).toContain('"LINESTRING (601990.000 1194000.000, 601990.000 1194030.000)"')
  })

  it('writes GeoJSON shapes in lon/lat, the ring closed, with VN-2000 X/Y and the figures in the properties', () => {
    const fc = JSON.parse(measuresGeoJson([plot, line]))
    const [p, l] = fc.features
    expect(p.geometry.type).toBe('Polygon')
    expect(p.geometry.coordinates[0]).toEqual([...plot.points, plot.points[0]])
    expect(p.properties).toMatchObject({ name: plot.name, kind: 'area', area_m2: 200, length_m: 60 })
    expect(p.properties.crs).toBe('VN-2000 KTT 105°45′ múi 3°')
    expect(p.properties.vn2000_xy[2]).toEqual([1_194_020, 602_010])
    expect(l.geometry).toEqual({ type: 'LineString', coordinates: line.points })
    expect(l.properties.area_m2).toBeNull()
  })

  describe('DXF, read back with GDAL', () => {
    const read = readDxfWithGdal(measuresDxf([plot, line]))
    const on = async (layer: string) => (await read).entities.filter((e) => e.layer === layer)

    it('opens in GDAL’s DXF driver with the area as a closed line and the length as an open one, in VN-2000 with easting as drawing X', async () => {
      expect((await read).driver).toBe('DXF')
      const [area, ...moreAreas] = await on('DO_DIEN_TICH')
      expect(moreAreas).toEqual([])
      const ring = (area!.geometry!.coordinates as number[][]).map(([e, n]) => [
        Number(e!.toFixed(3)),
        Number(n!.toFixed(3)),
      ])
      expect(ring).toEqual([
        [602_000, 1_194_000],
        [602_010, 1_194_000],
        [602_010, 1_194_020],
        [602_000, 1_194_020],
        [602_000, 1_194_000],
      ])
      const [length] = await on('DO_CHIEU_DAI')
      expect(length!.geometry!.type).toBe('LineString')
      expect((length!.geometry!.coordinates as number[][]).map(([e, n]) => [Math.round(e!), Math.round(n!)])).toEqual([
        [601_990, 1_194_000],
        [601_990, 1_194_030],
      ])
    })

    it('keeps the Vietnamese of each name and the coordinate system', async () => {
      expect((await on('TEN_PHEP_DO')).map((t) => t.text)).toEqual([
        'Lô đất "nhà ông Tư", phía sau: 200 m² · chu vi 60 m',
        'Mặt tiền hẻm: 30 m',
      ])
      expect((await on('GHI_CHU')).map((t) => t.text)).toEqual(['Phép đo trên bản đồ, VN-2000 KTT 105°45′ múi 3°'])
    })
  })
})
