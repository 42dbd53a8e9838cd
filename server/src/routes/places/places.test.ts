import { gunzipSync } from 'node:zlib'
import { VectorTile } from '@mapbox/vector-tile'
import { PbfReader } from 'pbf'
import { beforeAll, describe, expect, it } from 'vitest'
import { place } from '#core/contract/lookups.ts'
import { createTestUser, type TestUser } from '../../accounts/test-user.ts'
import { boundariesLoaded } from '../../testing/boundaries.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'

let t: TestApp
let user: TestUser

beforeAll(async () => {
  await boundariesLoaded()
  t = await createTestApp({ DAILY_LOOKUP_LIMIT: '1' })
  user = await createTestUser(t)
})

const at = async (lat: number, lng: number) => t.request(`/api/places/at?lat=${lat}&lng=${lng}`, { token: user.token })
const ok = async (lat: number, lng: number) => {
  const res = await at(lat, lng)
  expect(res.status).toBe(200)
  return place.parse(res.body.data)
}

describe('GET /api/places/at', () => {
  it('answers Phường Sài Gòn in TP.HCM at the Opera House, formerly Phường Bến Nghé of Quận 1, with the source and its date', async () => {
    const p = await ok(10.7769, 106.7031)
    expect(p).toMatchObject({ ward: 'Phường Sài Gòn', province: 'Thành phố Hồ Chí Minh' })
    expect(p.before_2025).toContainEqual({
      ward: 'Phường Bến Nghé',
      district: 'Quận 1',
      province: 'Thành phố Hồ Chí Minh',
    })
    expect(p.source.data_date).toBe('2025-07-01')
    expect(p.source.name).toMatch(/Ranh giới hành chính 2025/)
  })

  it('answers Phường Hoàn Kiếm in Hà Nội at the lake, listing the old wards of Quận Hoàn Kiếm merged into it', async () => {
    const p = await ok(21.0285, 105.8542)
    expect(p).toMatchObject({ ward: 'Phường Hoàn Kiếm', province: 'Thành phố Hà Nội' })
    expect(p.before_2025).toContainEqual({
      ward: 'Phường Hàng Trống',
      district: 'Quận Hoàn Kiếm',
      province: 'Thành phố Hà Nội',
    })
  })

  it('answers a commune in the mountains: Xã Lũng Cú, Tuyên Quang, formerly of Hà Giang', async () => {
    const p = await ok(23.3636, 105.3161)
    expect(p).toMatchObject({ ward: 'Xã Lũng Cú', province: 'Tỉnh Tuyên Quang' })
    expect(p.before_2025.some((u) => u.province === 'Tỉnh Hà Giang')).toBe(true)
  })

  it('answers the island special zone of Trường Sa, Khánh Hòa', async () => {
    const p = await ok(8.6453, 111.92)
    expect(p).toMatchObject({ ward: 'Đặc khu Trường Sa', province: 'Tỉnh Khánh Hòa' })
  })

  it('answers NotFound in the open sea, and LocationIncorrect for impossible coordinates', async () => {
    const sea = await at(9.5, 108.5)
    expect(sea.status).toBe(404)
    expect(sea.body.meta.code).toBe('NotFound')
    const bad = await at(91, 106)
    expect(bad.status).toBe(400)
    expect(bad.body.meta.code).toBe('LocationIncorrect')
  })

  it('needs a login and is never counted against the daily limit', async () => {
    expect((await t.request('/api/places/at?lat=10.7769&lng=106.7031')).status).toBe(401)
    for (let i = 0; i < 3; i++) await ok(10.7769, 106.7031)
    const usage = await t.request('/api/auth/usage', { token: user.token })
    expect(usage.body.data.count).toBe(0)
  })
})

/** The tile x, y holding a point at zoom z. */
function tileAt(z: number, lat: number, lng: number): [number, number] {
  const n = 2 ** z
  const r = (lat * Math.PI) / 180
  return [
    Math.floor(((lng + 180) / 360) * n),
    Math.floor(((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * n),
  ]
}

async function basemapNames(z: number, lat: number, lng: number) {
  const [x, y] = tileAt(z, lat, lng)
  const res = await t.app.request(`/tiles/basemap/${z}/${x}/${y}.pbf`)
  expect(res.status).toBe(200)
  const raw = new Uint8Array(await res.arrayBuffer())
  const bytes = res.headers.get('content-encoding') === 'gzip' ? new Uint8Array(gunzipSync(raw)) : raw
  const tile = new VectorTile(new PbfReader(bytes))
  const names = (layer: string, level: string) => {
    const l = tile.layers[layer]
    if (!l) return []
    return Array.from({ length: l.length }, (_, i) => l.feature(i).properties)
      .filter((p) => p.level === level)
      .map((p) => String(p.name))
  }
  return {
    provinces: names('admin_labels', 'province'),
    wards: names('admin_labels', 'ward'),
    provinceLines: names('admin_boundaries', 'province').length,
    wardLines: names('admin_boundaries', 'ward').length,
  }
}

describe('the 2025 boundaries in the basemap tiles', () => {
  it('draws provinces with their names from z6 and wards only from z10, in Hà Nội outside any imported basemap', async () => {
    const z7 = await basemapNames(7, 21.0285, 105.8542)
    expect(z7.provinces).toContain('Thủ đô Hà Nội')
    expect(z7.provinceLines).toBeGreaterThan(0)
    expect(z7.wards).toEqual([])
    const z11 = await basemapNames(11, 21.0285, 105.8542)
    expect(z11.wards).toContain('Phường Hoàn Kiếm')
    expect(z11.wardLines).toBeGreaterThan(0)
  })

  it('says in its TileJSON that the basemap starts at z6 and names the boundaries among its sources', async () => {
    const res = await t.app.request('/tiles/basemap.json')
    const tj = await res.json()
    expect(tj.minzoom).toBe(6)
    expect(tj.vector_layers.map((l: { id: string }) => l.id)).toEqual(
      expect.arrayContaining(['admin_boundaries', 'admin_labels']),
    )
  })
})
