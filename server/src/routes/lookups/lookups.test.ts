import { beforeAll, describe, expect, it } from 'vitest'
import { parcelsData, planningData, searchData, valuationData } from '#core/contract/lookups.ts'
import { tileJson } from '#core/contract/tiles.ts'
import { foldVietnamese } from '#core/text/fold.ts'
import { createTestUser, type TestUser } from '../../accounts/test-user.ts'
import type { Database } from '../../db/index.ts'
import { demoLoaded } from '../../testing/demo.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'

let t: TestApp
let db: Database
let user: TestUser

beforeAll(async () => {
  db = await demoLoaded()
  t = await createTestApp({ DAILY_LOOKUP_LIMIT: '1000' })
  user = await createTestUser(t)
})

type Spot = { id: string; lat: number; lng: number }
const insideOf = (where: string, params: unknown[] = []) =>
  db
    .query<Spot>(
      `select p.id::text as id, ST_Y(ST_PointOnSurface(p.geom))::float8 as lat, ST_X(ST_PointOnSurface(p.geom))::float8 as lng
       from parcels p where p.dataset_id = 'demo' and ${where} order by p.id limit 1`,
      params,
    )
    .then((rows) => {
      if (!rows[0]) throw new Error(`no demo parcel where ${where}`)
      return rows[0]
    })

async function usageCount(token: string): Promise<number> {
  const res = await t.request('/api/auth/usage', { token })
  return res.body.data.count
}

describe('GET /api/planning', () => {
  it('answers with the parcel under the point, its zones, VN-2000 and the data source, and counts the lookup', async () => {
    const spot = await insideOf(
      `p.address like '%/%' and exists (select 1 from planning_zones z where ST_Covers(z.geom, ST_PointOnSurface(p.geom)))`,
    )
    const before = await usageCount(user.token)
    const res = await t.request(`/api/planning?lat=${spot.lat}&lng=${spot.lng}`, { token: user.token })
    expect(res.status).toBe(200)
    const data = planningData.parse(res.body.data)
    expect(data.parcel?.id).toBe(spot.id)
    expect(data.parcel?.land_use.length).toBeGreaterThan(0)
    expect(data.parcel?.land_use[0]?.name).toBeTruthy()
    expect(data.parcel?.geometry.type).toBe('MultiPolygon')
    expect(data.zones.length).toBeGreaterThan(0)
    expect(data.zones[0]).toMatchObject({
      decision_no: expect.stringMatching(/\/QĐ-UBND$/),
      approved_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    })
    expect(data.location.vn2000.zone_meridian).toBe(105.75)
    expect(data.location.vn2000.x).toBeGreaterThan(1_000_000)
    expect(data.source).toEqual({
      dataset: 'demo',
      name: 'Phường mô phỏng — Dữ liệu mô phỏng',
      data_date: '2026-06-30',
    })
    expect(res.body.meta.usage.count).toBe(before + 1)
  })

  it('lists a road reserve that cuts the parcel with the area it takes, in m²', async () => {
    const [cut] = await db.query<Spot & { road_name: string; area: number }>(
      `select p.id::text as id, ST_Y(ST_PointOnSurface(p.geom))::float8 as lat, ST_X(ST_PointOnSurface(p.geom))::float8 as lng,
         r.road_name, ST_Area(ST_Intersection(r.geom, p.geom)::geography)::float8 as area
       from parcels p join road_reserves r on ST_Intersects(r.geom, p.geom) join parcel_land_use u on u.parcel_id = p.id and u.code = 'ODT'
       where p.dataset_id = 'demo' and ST_Area(ST_Intersection(r.geom, p.geom)::geography) > 5 order by p.id limit 1`,
    )
    if (!cut) throw new Error('the demo set has no parcel cut by a road reserve')
    const res = await t.request(`/api/planning?lat=${cut.lat}&lng=${cut.lng}`, { token: user.token })
    expect(res.status).toBe(200)
    const reserve = res.body.data.road_reserves.find((r: { road_name: string }) => r.road_name === cut.road_name)
    expect(reserve).toBeDefined()
    expect(reserve.affected_area_m2).toBeCloseTo(cut.area, 0)
    expect(reserve.width_m).toBeGreaterThan(0)
  })

  it('answers with an empty road_reserves list for a parcel no reserve touches', async () => {
    const spot = await insideOf(
      `not exists (select 1 from road_reserves r where ST_Intersects(r.geom, p.geom)) and p.address <> ''`,
    )
    const res = await t.request(`/api/planning?lat=${spot.lat}&lng=${spot.lng}`, { token: user.token })
    expect(res.body.data.road_reserves).toEqual([])
  })

  it('takes the nearest parcel within 2 m when the point falls just outside every parcel', async () => {
    // The middle of a 2.2 m alley is 1.1 m from the lots on either side.
    const [alley] = await db.query<{ lat: number; lng: number }>(
      `select ST_Y(ST_LineInterpolatePoint(geom, 0.5))::float8 as lat, ST_X(ST_LineInterpolatePoint(geom, 0.5))::float8 as lng
       from streets where dataset_id = 'demo' and class = 'alley' and width_m = 2.2 order by id limit 1`,
    )
    const res = await t.request(`/api/planning?lat=${alley?.lat}&lng=${alley?.lng}`, { token: user.token })
    expect(res.status).toBe(200)
    const [distance] = await db.query<{ m: number }>(
      `select ST_Distance(geom::geography, ST_SetSRID(ST_MakePoint($2, $1), 4326)::geography)::float8 as m from parcels where id = $3::bigint`,
      [alley?.lat, alley?.lng, res.body.data.parcel.id],
    )
    expect(distance?.m).toBeGreaterThan(0)
    expect(distance?.m).toBeLessThanOrEqual(2)
  })

  it('answers Ok with parcel null and the zones, counted, in the middle of an alley more than 2 m from any parcel', async () => {
    // The middle of a 6 m alley is 3 m from the nearest lot; the demo plans cover the alleys too.
    const [alley] = await db.query<{ lat: number; lng: number }>(
      `select ST_Y(ST_LineInterpolatePoint(geom, 0.5))::float8 as lat, ST_X(ST_LineInterpolatePoint(geom, 0.5))::float8 as lng
       from streets where dataset_id = 'demo' and class = 'alley' and width_m = 6 order by id limit 1`,
    )
    const before = await usageCount(user.token)
    const res = await t.request(`/api/planning?lat=${alley?.lat}&lng=${alley?.lng}`, { token: user.token })
    expect(res.status).toBe(200)
    const data = planningData.parse(res.body.data)
    expect(data.parcel).toBeNull()
    expect(data.zones.length).toBeGreaterThan(0)
    expect(data.zones[0]?.governing).toBe(true)
    expect(data.source.dataset).toBe('demo')
    expect(await usageCount(user.token)).toBe(before + 1)
  })

  it('answers 400 LocationIncorrect, not counted, outside every dataset', async () => {
    const before = await usageCount(user.token)
    const res = await t.request('/api/planning?lat=21.0285&lng=105.8542', { token: user.token })
    expect(res.status).toBe(400)
    expect(res.body.meta.code).toBe('LocationIncorrect')
    expect(await usageCount(user.token)).toBe(before)
  })

  it('answers bad coordinates with a 400 envelope, never a 500', async () => {
    for (const query of [
      'lat=91&lng=106',
      'lat=10&lng=181',
      'lat=NaN&lng=106',
      'lat=abc&lng=106',
      'lat=10',
      '',
      'lat=1e999&lng=106',
      'lat=10&lng=106;drop table parcels',
    ]) {
      const res = await t.request(`/api/planning?${query}`, { token: user.token })
      expect(res.status, query).toBe(400)
      expect(res.body.meta.status).toBe('NG')
      expect(['LocationIncorrect', 'BadRequest']).toContain(res.body.meta.code)
    }
  })

  it('answers 401 without a token', async () => {
    const res = await t.request('/api/planning?lat=10.8&lng=106.7')
    expect(res.status).toBe(401)
  })
})

describe('GET /api/search', () => {
  const search = (q: string, limit?: number) =>
    t.request(`/api/search?q=${encodeURIComponent(q)}${limit ? `&limit=${limit}` : ''}`, { token: user.token })

  it('finds streets for "nguyen" without diacritics, and does not count it', async () => {
    const before = await usageCount(user.token)
    const res = await search('nguyen')
    expect(res.status).toBe(200)
    const hits = searchData.parse(res.body.data)
    expect(hits.length).toBeGreaterThan(0)
    expect(hits[0]?.kind).toBe('street')
    expect(hits.every((h) => foldVietnamese(h.label).includes('nguyen'))).toBe(true)
    expect(res.body.meta.usage).toBeUndefined()
    expect(await usageCount(user.token)).toBe(before)
  })

  it('puts the street first for a typo, in any case and with or without diacritics', async () => {
    for (const q of ['ngyen van dau', 'NGUYỄN VĂN ĐẬU', 'nguyen van dâu']) {
      const res = await search(q, 5)
      expect(res.body.data[0]?.label, q).toBe('Đường Nguyễn Văn Đậu')
    }
  })

  it('finds an alley address from its house number and street, address first', async () => {
    const [row] = await db.query<{ address: string }>(
      `select address from parcels where dataset_id = 'demo' and address like '%/%' order by id limit 1`,
    )
    const typed = foldVietnamese(row?.address.split(',')[0] ?? '').replace('duong ', '')
    const res = await search(typed)
    expect(res.body.data[0]).toMatchObject({ kind: 'address', label: row?.address })
    expect(res.body.data[0].lat).toBeGreaterThan(10)
  })

  it('ranks a street whose name after "Đường"/"Hẻm" starts with the query first, from the name key the database stores for any row written', async () => {
    const [st] = await db.query<{ id: number }>(
      `insert into streets (dataset_id, name, class, width_m, province, ward, geom)
       values ('demo', 'Hẻm Quỳnh Khôi Thử', 'alley', 3, 'TP. Hồ Chí Minh', 'Phường Thử', ST_SetSRID(ST_MakeLine(ST_Point(106.70, 10.79), ST_Point(106.701, 10.79)), 4326))
       returning id::float8 as id`,
    )
    try {
      const [row] = await db.query<{ name_key: string }>('select name_key from streets where id = $1', [st!.id])
      expect(row?.name_key).toBe('quynh khoi thu')
      const res = await search('quynh kh', 5)
      expect(res.body.data[0]).toMatchObject({ kind: 'street', label: 'Hẻm Quỳnh Khôi Thử' })
    } finally {
      await db.query('delete from streets where id = $1', [st!.id])
    }
  })

  it('ranks a Hà Nội street written "Phố …" by the name after "Phố", as a price table writes it, before a longer name starting with the query', async () => {
    const ids = await db.query<{ id: number }>(
      `insert into streets (dataset_id, name, class, width_m, province, ward, geom)
       select 'demo', n, 'street', 8, 'Thành phố Hà Nội', 'Phường Thử', ST_SetSRID(ST_MakeLine(ST_Point(105.85, 21.01), ST_Point(105.851, 21.01)), 4326)
       from unnest(array['Phố Quỳnh Lâm Thử', 'Quỳnh Lâm Thử Nghiệm Dài Hơn']) n
       returning id::float8 as id`,
    )
    try {
      const res = await search('quynh lam thu', 5)
      expect(res.body.data.slice(0, 2).map((r: { label: string }) => r.label)).toEqual([
        'Phố Quỳnh Lâm Thử',
        'Quỳnh Lâm Thử Nghiệm Dài Hơn',
      ])
    } finally {
      await db.query('delete from streets where id = any($1::bigint[])', [ids.map((r) => r.id)])
    }
  })

  it('finds the ward by name', async () => {
    const res = await search('gia an')
    expect(res.body.data[0]).toMatchObject({ kind: 'ward', label: 'Phường Gia An' })
  })

  it('finds a parcel by "tờ … thửa …"', async () => {
    const res = await search('tờ 12 thửa 5')
    expect(res.body.data[0]).toMatchObject({ kind: 'parcel', label: 'Tờ 12, thửa 5' })
  })

  it('names the ward once in a parcel found by "tờ … thửa …" whose address already ends with it', async () => {
    const res = await search('tờ 12 thửa 5')
    for (const r of res.body.data as { detail: string }[]) {
      const parts = r.detail.split(', ')
      expect(new Set(parts).size, r.detail).toBe(parts.length)
    }
    expect(res.body.data[0].detail).toContain('Phường')
  })

  it('says in the parcels TileJSON where the data is, so a search that finds nothing can tell', async () => {
    const res = await t.request('/tiles/parcels.json')
    const tj = tileJson.parse(res.body)
    expect(tj.coverage).toContain('Phường Gia An, Thành phố Hồ Chí Minh')
    expect(tileJson.parse((await t.request('/tiles/planning.json')).body).coverage).toBeUndefined()
  })

  it('treats SQL and LIKE wildcards in q as plain text and answers bad q or limit with 400, never 500', async () => {
    for (const q of ["'; drop table parcels; --", '%', '_%_', '\\', '((((', 'x'.repeat(200)]) {
      const res = await search(q)
      expect(res.status, q).toBe(200)
      expect(Array.isArray(res.body.data)).toBe(true)
    }
    expect((await search('x'.repeat(201))).status).toBe(400)
    expect((await t.request('/api/search', { token: user.token })).status).toBe(400)
    expect((await t.request('/api/search?q=nguyen&limit=abc', { token: user.token })).status).toBe(400)
    expect((await t.request('/api/search?q=nguyen&limit=1000', { token: user.token })).status).toBe(400)
    const [count] = await db.query<{ n: number }>(`select count(*)::int as n from parcels where dataset_id = 'demo'`)
    expect(count?.n).toBeGreaterThan(20_000)
    const half = await t.request('/api/search?q=nguyen&lat=10.8', { token: user.token })
    expect(half.status).toBe(400)
  })

  it('puts the streets of the ward at the map centre first, then the rest of the matches', async () => {
    const [home] = await db.query<{ name: string; province: string; lat: number; lng: number }>(
      `select name, province, ST_Y(ST_PointOnSurface(geom))::float8 as lat, ST_X(ST_PointOnSurface(geom))::float8 as lng
       from admin_units where dataset_id = 'demo' and level = 'ward' order by id limit 1`,
    )
    if (!home) throw new Error('no demo ward')
    // A second ward away from the demo's, each with one street of the same family of names.
    const square = 'ST_GeomFromText($1, 4326)'
    const far = 'MULTIPOLYGON(((107.50 11.50, 107.52 11.50, 107.52 11.52, 107.50 11.52, 107.50 11.50)))'
    const [ward] = await db.query<{ id: number }>(
      `insert into admin_units (dataset_id, level, name, province, geom) values ('demo', 'ward', 'Phường Xa Thử', $2, ${square}) returning id::float8 as id`,
      [far, home.province],
    )
    const streets = await db.query<{ id: number }>(
      `insert into streets (dataset_id, name, class, width_m, province, ward, geom) values
         ('demo', 'Đường Kiểm Thử Xa', 'street', 8, $1, 'Phường Xa Thử', ST_SetSRID(ST_MakeLine(ST_Point(107.505, 11.51), ST_Point(107.51, 11.51)), 4326)),
         ('demo', 'Đường Kiểm Thử Gần', 'street', 8, $1, $2, ST_SetSRID(ST_MakeLine(ST_Point($4, $3), ST_Point($4 + 0.001, $3)), 4326))
       returning id::float8 as id`,
      [home.province, home.name, home.lat, home.lng],
    )
    try {
      const near = (lat: number, lng: number, limit: number) =>
        t.request(`/api/search?q=${encodeURIComponent('kiem thu')}&limit=${limit}&lat=${lat}&lng=${lng}`, {
          token: user.token,
        })
      const labels = (res: { body: { data: { label: string }[] } }) => res.body.data.map((r) => r.label)
      expect(labels(await near(11.51, 107.51, 5))).toEqual(['Đường Kiểm Thử Xa', 'Đường Kiểm Thử Gần'])
      expect(labels(await near(home.lat, home.lng, 5))).toEqual(['Đường Kiểm Thử Gần', 'Đường Kiểm Thử Xa'])
      expect(labels(await near(11.51, 107.51, 1))).toEqual(['Đường Kiểm Thử Xa'])
      expect(labels(await search('kiem thu', 5)).sort()).toEqual(['Đường Kiểm Thử Gần', 'Đường Kiểm Thử Xa'])
    } finally {
      await db.query('delete from streets where id = any($1::bigint[])', [streets.map((r) => r.id)])
      await db.query('delete from admin_units where id = $1', [ward?.id])
    }
  })
})

describe('GET /api/parcels', () => {
  it('finds a parcel by sheet and parcel number, with or without "Phường" and diacritics in the ward', async () => {
    const [p] = await db.query<{ id: string; sheet_no: number; parcel_no: number; ward: string }>(
      `select id::text as id, sheet_no, parcel_no, ward from parcels where dataset_id = 'demo' and address <> '' order by id limit 1 offset 100`,
    )
    if (!p) throw new Error('no demo parcel')
    for (const ward of [p.ward, foldVietnamese(p.ward).replace('phuong ', '')]) {
      const res = await t.request(
        `/api/parcels?province=${encodeURIComponent('Thành phố Hồ Chí Minh')}&ward=${encodeURIComponent(ward)}&sheet_no=${p.sheet_no}&parcel_no=${p.parcel_no}`,
        { token: user.token },
      )
      expect(res.status, ward).toBe(200)
      const parcels = parcelsData.parse(res.body.data)
      expect(parcels.map((x) => x.id)).toContain(p.id)
      expect(parcels.every((x) => x.sheet_no === p.sheet_no && x.parcel_no === p.parcel_no)).toBe(true)
    }
  })

  it('answers only where each parcel is, no area, land use or shape: the counted lookup at its point finds it', async () => {
    const [p] = await db.query<{ id: string; sheet_no: number; parcel_no: number }>(
      `select id::text as id, sheet_no, parcel_no from parcels where dataset_id = 'demo' and address <> '' order by id limit 1 offset 40`,
    )
    const res = await t.request(`/api/parcels?sheet_no=${p!.sheet_no}&parcel_no=${p!.parcel_no}`, { token: user.token })
    expect(res.status).toBe(200)
    const found = res.body.data.find((x: { id: string }) => x.id === p!.id)
    expect(Object.keys(found).sort()).toEqual([
      'address',
      'district',
      'id',
      'lat',
      'lng',
      'parcel_no',
      'province',
      'sheet_no',
      'ward',
    ])
    expect(res.body.meta.usage).toBeUndefined()
    const looked = await t.request(`/api/planning?lat=${found.lat}&lng=${found.lng}`, { token: user.token })
    expect(looked.body.data.parcel.id).toBe(p!.id)
  })

  it('gives no parcel record once the day’s lookups are used up: where it is, and the lookup then says MaxUsage', async () => {
    const limited = await createTestApp({ DAILY_LOOKUP_LIMIT: '1' })
    const someone = await createTestUser(limited)
    const spot = await insideOf('true')
    expect(
      (await limited.request(`/api/planning?lat=${spot.lat}&lng=${spot.lng}`, { token: someone.token })).status,
    ).toBe(200)
    const [p] = await db.query<{ sheet_no: number; parcel_no: number }>(
      'select sheet_no, parcel_no from parcels where id = $1::bigint',
      [spot.id],
    )
    const where = await limited.request(`/api/parcels?sheet_no=${p!.sheet_no}&parcel_no=${p!.parcel_no}`, {
      token: someone.token,
    })
    expect(where.status).toBe(200)
    for (const ref of where.body.data) expect(ref).not.toHaveProperty('geometry')
    for (const ref of where.body.data) expect(ref).not.toHaveProperty('land_use')
    const ref = where.body.data.find((x: { id: string }) => x.id === spot.id)
    const next = await limited.request(`/api/planning?lat=${ref.lat}&lng=${ref.lng}`, { token: someone.token })
    expect([next.status, next.body.meta.code]).toEqual([429, 'MaxUsage'])
  })

  it('answers 404 for a number no sheet has and 400 for missing or non-numeric numbers', async () => {
    expect((await t.request('/api/parcels?sheet_no=999999&parcel_no=1', { token: user.token })).status).toBe(404)
    expect((await t.request('/api/parcels?sheet_no=1', { token: user.token })).status).toBe(400)
    expect((await t.request('/api/parcels?sheet_no=abc&parcel_no=1', { token: user.token })).status).toBe(400)
    expect((await t.request('/api/parcels?sheet_no=1&parcel_no=1')).status).toBe(401)
  })
})

describe('POST /api/valuation', () => {
  const valuation = (json: unknown, token = user.token) => t.request('/api/valuation', { method: 'POST', json, token })

  it('prices an alley parcel: VT position from its alley width, market range with comparables, counted', async () => {
    const spot = await insideOf(`p.alley_width_m between 3 and 4.9`)
    const before = await usageCount(user.token)
    const res = await valuation({ lat: spot.lat, lng: spot.lng, floors: 3 })
    expect(res.status).toBe(200)
    const data = valuationData.parse(res.body.data)
    expect(data.parcel.id).toBe(spot.id)
    expect(data.state_price).toMatchObject({
      year: 2026,
      position: 'VT3',
      source: 'Bảng giá đất TP.HCM 2026 (mô phỏng)',
    })
    const m = data.market_estimate
    if (!m) throw new Error('no market estimate')
    expect(m.low_vnd).toBeLessThanOrEqual(m.mid_vnd)
    expect(m.mid_vnd).toBeLessThanOrEqual(m.high_vnd)
    expect(m.confidence).toBeGreaterThan(0)
    expect(m.method).toMatch(/giao dịch trong bán kính/)
    expect(data.comparables.length).toBeGreaterThanOrEqual(8)
    expect(data.source.dataset).toBe('demo')
    expect(res.body.meta.usage.count).toBe(before + 1)
  })

  it('lets the request override the parcel’s facts: alley width 0 makes it street-front VT1 and raises the price', async () => {
    const spot = await insideOf(`p.alley_width_m between 3 and 4.9`)
    const asIs = await valuation({ lat: spot.lat, lng: spot.lng })
    const front = await valuation({ lat: spot.lat, lng: spot.lng, alley_width_m: 0, area_m2: 100 })
    expect(front.body.data.state_price.position).toBe('VT1')
    expect(front.body.data.market_estimate.vnd_per_m2).toBeGreaterThan(asIs.body.data.market_estimate.vnd_per_m2)
    expect(front.body.data.market_estimate.mid_vnd).toBeCloseTo(front.body.data.market_estimate.vnd_per_m2 * 100, -6)
  })

  it('gives a road parcel its state price but no market estimate', async () => {
    const spot = await insideOf(
      `exists (select 1 from parcel_land_use u where u.parcel_id = p.id and u.code = 'DGT') and p.street_id is not null`,
    )
    const res = await valuation({ lat: spot.lat, lng: spot.lng })
    expect(res.status).toBe(200)
    expect(res.body.data.market_estimate).toBeNull()
    expect(res.body.data.comparables).toEqual([])
    expect(res.body.data.state_price).not.toBeNull()
  })

  it('refuses image ids that are not the caller’s with 403, before counting', async () => {
    const spot = await insideOf(`p.alley_width_m > 0`)
    const before = await usageCount(user.token)
    const res = await valuation({ lat: spot.lat, lng: spot.lng, image_ids: ['not-mine'] })
    expect(res.status).toBe(403)
    expect(res.body.meta.code).toBe('Forbidden')
    expect(await usageCount(user.token)).toBe(before)
  })

  it('answers bad bodies with a 400 envelope, never a 500', async () => {
    const bodies: unknown[] = [
      { lat: '10.8', lng: 106.7 },
      { lat: 91, lng: 106.7 },
      { lat: 10.8 },
      { lat: 10.8, lng: 106.7, area_m2: -5 },
      { lat: 10.8, lng: 106.7, floors: 2.5 },
      { lat: 10.8, lng: 106.7, image_ids: ['a', 'b', 'c', 'd', 'e'] },
      [],
      null,
    ]
    for (const body of bodies) {
      const res = await valuation(body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.body.meta.status).toBe('NG')
    }
    const raw = await t.request('/api/valuation', {
      method: 'POST',
      body: '{"lat": 10.8,',
      headers: { 'content-type': 'application/json' },
      token: user.token,
    })
    expect(raw.status).toBe(400)
    const form = await t.request('/api/valuation', {
      method: 'POST',
      body: 'lat=10.8',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      token: user.token,
    })
    expect(form.status).toBe(400)
  })

  it('refuses typed facts outside a sane range with 400 naming the field, before counting', async () => {
    const spot = await insideOf(`p.alley_width_m between 3 and 4.9`)
    const before = await usageCount(user.token)
    const cases: [string, number][] = [
      ['area_m2', 5e-324],
      ['area_m2', 0.5],
      ['area_m2', 10_000_001],
      ['frontage_m', 1e-300],
      ['frontage_m', 1001],
      ['alley_width_m', 1e-300],
      ['alley_width_m', 101],
      ['floors', 101],
    ]
    for (const [field, value] of cases) {
      const res = await valuation({ lat: spot.lat, lng: spot.lng, [field]: value })
      expect(res.status, `${field}=${value}`).toBe(400)
      expect(res.body.meta.code).toBe('BadRequest')
      expect(Object.keys(res.body.errors), `${field}=${value}`).toEqual([field])
    }
    expect(await usageCount(user.token)).toBe(before)
    // The edges themselves are facts a person can type.
    const edges = await valuation({ lat: spot.lat, lng: spot.lng, area_m2: 1, frontage_m: 1, alley_width_m: 0.5 })
    expect(edges.status).toBe(200)
  })

  it('answers 400 LocationIncorrect outside the data and 404 where no parcel is, neither counted', async () => {
    const before = await usageCount(user.token)
    expect((await valuation({ lat: 21.0285, lng: 105.8542 })).body.meta.code).toBe('LocationIncorrect')
    const [alley] = await db.query<{ lat: number; lng: number }>(
      `select ST_Y(ST_LineInterpolatePoint(geom, 0.5))::float8 as lat, ST_X(ST_LineInterpolatePoint(geom, 0.5))::float8 as lng
       from streets where dataset_id = 'demo' and class = 'alley' and width_m = 6 order by id limit 1`,
    )
    expect((await valuation({ lat: alley?.lat, lng: alley?.lng })).status).toBe(404)
    expect(await usageCount(user.token)).toBe(before)
  })
})
