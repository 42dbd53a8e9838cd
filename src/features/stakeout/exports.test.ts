import { describe, expect, it } from 'vitest'
import { readDxf } from '../../../tests/support/dxf-reader.ts'
import { marksCsv, marksDxf, marksGeoJson } from './exports.ts'
import type { Mark } from './marks.ts'

const M = 105.75
const found: Mark = {
  id: 'a',
  parcelId: 'p1',
  subject: 'Thửa 34, tờ 12',
  target: { x: 1_194_020, y: 602_000, meridian: M, corner: 1, label: 'Góc 1' },
  status: 'found',
  measured: {
    lat: 10.79,
    lng: 106.7,
    x: 1_194_020.012,
    y: 601_999.995,
    accuracyM: 0.011,
    quality: 'rtk-fixed',
    sigmaM: 0.004,
    samples: 10,
  },
  note: 'cọc bê tông, sơn đỏ',
  photoId: 'q1',
  at: Date.UTC(2026, 10, 27, 3, 0, 0),
}
const lost: Mark = {
  ...found,
  id: 'b',
  target: { ...found.target, x: 1_194_000, corner: 2, label: 'Góc 2' },
  status: 'lost',
  measured: null,
  note: '',
  photoId: null,
}

describe('stakeout results as files', () => {
  it('writes CSV rows with recorded and measured X/Y, their difference, accuracy and solution type', () => {
    const csv = marksCsv([found, lost], new Map([['q1', 'upl-9']]))
    expect(csv.startsWith('\uFEFF')).toBe(true)
    const [head, a, b] = csv.slice(1).trim().split('\r\n')
    expect(head).toMatch(
      /^Điểm,Thửa,Trạng thái,Hệ toạ độ,X ghi \(m\),Y ghi \(m\),X đo \(m\),Y đo \(m\),ΔX \(m\),ΔY \(m\),Lệch/,
    )
    expect(a).toMatch(
      /^Góc 1,"Thửa 34, tờ 12",đã tìm thấy mốc,VN-2000 KTT 105°45′ múi 3°,1194020.000,602000.000,1194020.012,601999.995,0.012,-0.005,0.013,0.011,RTK cố định,10,0.004,2026-11-27T03:00:00.000Z,/,
    )
    expect(a).toContain(',upl-9,')
    expect(b).toMatch(/^Góc 2,"Thửa 34, tờ 12",mốc bị mất,VN-2000 KTT 105°45′ múi 3°,1194000.000,602000.000,,,,,,/)
  })

  it('writes GeoJSON points at the measured place with both coordinates in the properties', () => {
    const fc = JSON.parse(marksGeoJson([found, lost]))
    expect(fc.features[0].geometry).toEqual({ type: 'Point', coordinates: [106.7, 10.79] })
    expect(fc.features[0].properties).toMatchObject({
      recorded_x: 1_194_020,
      measured_x: 1_194_020.012,
      quality: 'rtk-fixed',
    })
    expect(fc.features[0].properties.dx).toBeCloseTo(0.012, 9)
    expect(fc.features[1].geometry).toBeNull()
  })

  it('writes a DXF that reads back with recorded and measured points, easting as drawing X', () => {
    const d = readDxf(marksDxf([found, lost]))
    expect(d.version).toBe('AC1009')
    expect(d.layers).toEqual(['MOC_GHI', 'MOC_DO', 'LECH', 'SO_HIEU_DIEM'])
    expect(d.points).toEqual([
      [602_000, 1_194_020],
      [601_999.995, 1_194_020.012],
      [602_000, 1_194_000],
    ])
    expect(d.texts.map((t) => t.value)).toEqual(['Goc 1', 'Goc 2'])
  })
})
