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
