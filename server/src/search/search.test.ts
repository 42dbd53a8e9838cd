import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SearchResult } from '#core/contract/lookups.ts'
import { foldVietnamese } from '#core/text/fold.ts'
import type { Database, Queryable } from '../db/index.ts'
import { boundariesLoaded } from '../testing/boundaries.ts'
import { demoLoaded } from '../testing/demo.ts'
import { searchPlaces, splitHouseNumber, wardFirst } from './search.ts'

let db: Database
beforeAll(async () => {
  db = await demoLoaded()
  // Today's wards and what old names became, as every server has them: old names must not change what today's names answer.
  await boundariesLoaded()
})

/**
 * The ranking as one statement over street segments, before street_names (migration 016): every
 * matching segment ranked, grouped by name and ward. It is what the search must keep answering.
 */
async function segmentSearch(
  db: Queryable,
  q: string,
  limit: number,
  near?: { lat: number; lng: number },
): Promise<SearchResult[]> {
  const folded = foldVietnamese(q)
  if (!folded) return []
  return wardFirst((ward) => segmentNamedPlaces(db, folded, limit, ward), limit, near)
}

function segmentNamedPlaces(
  db: Queryable,
  folded: string,
  limit: number,
  ward: { lat: number; lng: number } | null,
): Promise<SearchResult[]> {
  const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`)
  const { number, rest } = splitHouseNumber(folded)
  const name = rest || folded
  const params: unknown[] = number
    ? [name, `%${likeEscape(name)}%`, limit, folded, `${likeEscape(number)} %`, rest]
    : [name, `%${likeEscape(name)}%`, limit]
  let wardCte = ''
  let inWard = (_alias: string) => ''
  const wardOf = (alias: string) => `(${alias}.province, ${alias}.ward) = (select province, name from ward)`
  if (ward) {
    const [lat, lng] = [params.length + 1, params.length + 2]
    params.push(ward.lat, ward.lng)
    wardCte = `ward as (select a.name, a.province from admin_units a
       where a.level = 'ward' and ST_Covers(a.geom, ST_SetSRID(ST_MakePoint($${lng}::float8, $${lat}::float8), 4326))
       order by a.before_2025 is not null, a.id limit 1),`
    inWard = (alias) => `and ${wardOf(alias)}`
  }
  const rank = (col: string, query: string, key?: string) => `
    (${col} like ${query} || '%' or ${key ? `${key} like ${query} || '%'` : `vn_name_key(${col}) like ${query} || '%'`}
      or (${col} like '%duong %' and vn_name_bare(${col}) like ${query} || '%')) as is_prefix,
    word_similarity(${query}, ${col}) as ws, similarity(${query}, ${col}) as sim`
  const addresses = number
    ? `union all select * from (
         select 'address'::text as kind, p.id::text as id, p.address as label, 'Tờ ' || p.sheet_no || ', thửa ' || p.parcel_no || ', ' || p.province as detail,
           ST_PointOnSurface(p.geom) as pt, 0 as kind_order, 0 as class_order, ${rank('p.address_fold', '$4')}
         from parcels p where p.address_fold like $5 and ($6 = '' or p.address_fold %> $6) ${inWard('p')}
         order by is_prefix desc, ws desc, sim desc, p.id limit $3) a`
    : ''
  return db.query<SearchResult>(
    `with ${wardCte} hits as (
       select 'ward'::text as kind, a.id::text as id, a.name as label, concat_ws(', ', nullif(a.district, ''), nullif(a.province, a.name)) as detail,
         ST_PointOnSurface(a.geom) as pt, 1 as kind_order, 0 as class_order, ${rank('a.name_fold', '$1', 'a.name_key')}
       from admin_units a where a.name_fold %> $1 or a.name_fold like $2
       union all
       select 'street'::text as kind, min(s.id)::text as id, s.name as label, concat_ws(', ', nullif(s.ward, ''), s.province) as detail,
         ST_ClosestPoint(ST_Collect(s.geom), ST_Centroid(ST_Collect(s.geom))) as pt, 2 as kind_order,
         (case s.class when 'main' then 0 when 'street' then 1 else 2 end) as class_order, ${rank('s.name_fold', '$1', 'min(s.name_key)')}
       from streets s where (s.name_fold %> $1 or s.name_fold like $2) ${inWard('s')}
       group by s.name, s.name_fold, s.ward, s.province, s.class
       union all
       select pp.kind, 'pp' || min(pp.id)::text as id, pp.name as label,
         concat_ws(', ', nullif(pp.ward, ''), nullif(pp.district, ''), nullif(pp.province, pp.name)) as detail,
         ST_ClosestPoint(ST_Collect(pp.geom), ST_Centroid(ST_Collect(pp.geom))) as pt, (case pp.kind when 'ward' then 1 else 2 end) as kind_order,
         1 as class_order, ${rank('pp.name_fold', '$1', 'min(pp.name_key)')}
       from parcel_places pp
       where (pp.name_fold %> $1 or pp.name_fold like $2)
         ${ward ? `and (pp.kind = 'ward' or ${wardOf('pp')})` : ''}
         and not (case pp.kind
           when 'street' then exists (select 1 from streets s where s.name_fold = pp.name_fold and s.province = pp.province)
           else exists (select 1 from admin_units a where a.name_fold = pp.name_fold and a.province = pp.province) end)
       group by pp.kind, pp.name, pp.name_fold, pp.ward, pp.district, pp.province
       ${addresses}
     )
     select kind, id, label, detail, ST_Y(pt)::float8 as lat, ST_X(pt)::float8 as lng from hits
     order by kind_order = 0 desc, is_prefix desc, ws desc, kind_order, class_order, sim desc, label, id limit $3`,
    params,
  )
}

// A PostgreSQL backend loads pg_trgm's library only when a statement first calls it, and until then does not know
// its settings: a server's first address search on a fresh connection must still answer.
describe.skipIf(!process.env.DATABASE_URL)('search on a fresh PostgreSQL connection', () => {
  it('finds an address by house number and street as the first statement of a new connection', async () => {
    const [parcel] = await db.query<{ address: string }>(
      `select address from parcels where address ~ '^[0-9]+ ' order by id limit 1`,
    )
    const address = (parcel?.address ?? '').split(',')[0] ?? ''
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL })
    await client.connect()
    try {
      const fresh: Queryable = {
        query: async <T>(sql: string, params?: unknown[]) => (await client.query(sql, params)).rows as T[],
        exec: async (sql: string) => void (await client.query(sql)),
      }
      const found = await searchPlaces(fresh, address, 5)
      expect(found.map((r) => r.label)).toContain(parcel?.address)
    } finally {
      await client.end()
    }
  })
})

describe('search ranked over street names', () => {
  const datasetId = 'search-names-places'
  beforeAll(async () => {
    // Names imported parcels give (parcel_places): one of them is a demo street's name in another
    // province, so it ranks level with that street and only the id orders the two.
    await db.query(
      `insert into datasets (id, kind, name, source, data_date, crs) values ($1, 'parcels', 'Thử', 'Thử', '2024-06-01', 'EPSG:4326')`,
      [datasetId],
    )
    await db.query(
      `insert into parcel_places (dataset_id, kind, name, ward, district, province, parcels, geom)
       select $1, p.kind, p.name, p.ward, 'Quận Liên Chiểu', 'Thành phố Đà Nẵng', 3, ST_SetSRID(ST_Point(108.15, 16.07), 4326)
       from (values ('street', 'Đường Nguyễn Văn Đậu', 'Phường Hòa Khánh Bắc'), ('street', 'Nguyễn Lương Bằng', 'Phường Hòa Khánh Bắc'),
                    ('ward', 'Phường Hòa Khánh Bắc', '')) p(kind, name, ward)`,
      [datasetId],
    )
  })
  afterAll(() => db.query('delete from datasets where id = $1', [datasetId]))

  it('answers what ranking every segment answered, for the bench queries and the suite’s, in the ward on screen or not, at any limit', async () => {
    const names = await db.query<{ name: string }>(
      `select distinct name from streets where class <> 'alley' order by name limit 12`,
    )
    const alleys = await db.query<{ name: string }>(
      `select name from streets where class = 'alley' order by id limit 4`,
    )
    const addresses = await db.query<{ address: string }>(
      `select address from parcels where address <> '' order by (id * 2654435761) % 4294967291 limit 8`,
    )
    const wards = await db.query<{ name: string }>(
      `select name from admin_units where level = 'ward' order by id limit 4`,
    )
    const queries = [
      ...names.map((s) => s.name),
      ...names.slice(0, 6).map((s) => foldVietnamese(s.name)),
      ...names.slice(6, 12).map((s) => foldVietnamese(s.name).slice(0, 7)),
      ...alleys.map((s) => s.name),
      ...addresses.map((a) => a.address.split(',')[0] ?? a.address),
      ...addresses.slice(0, 2).map((a) => foldVietnamese(a.address.split(',')[0] ?? '').replace('duong ', '')),
      ...wards.map((w) => foldVietnamese(w.name)),
      ...[
        'nguyen',
        'ngyen van dau',
        'NGUYỄN VĂN ĐẬU',
        'nguyen van dâu',
        'gia an',
        'quynh kh',
        'nguyen luong bang',
        'hoa khanh bac',
      ],
      ...[
        'duong',
        'duong h',
        'duong b',
        'hem',
        'hem 1',
        'd',
        'ng',
        '12',
        '12 nguyen',
        '7/2',
        '%',
        '_%_',
        "'; drop table parcels; --",
      ],
    ]
    const spots = await db.query<{ lat: number; lng: number }>(
      `select ST_Y(pt)::float8 as lat, ST_X(pt)::float8 as lng from (
         select ST_PointOnSurface(geom) as pt from parcels where dataset_id = 'demo' order by (id * 2654435761) % 4294967291 limit 3) s`,
    )
    const places = [undefined, ...spots, { lat: 10.0, lng: 105.0 }]
    let searched = 0
    for (const [i, q] of queries.entries()) {
      const near = places[i % places.length]
      for (const limit of [1, 5, 10]) {
        const expected = await segmentSearch(db, q, limit, near)
        expect(
          // What names from before 1 July 2025 became may follow the answers ranked here.
          (await searchPlaces(db, q, limit, near)).slice(0, expected.length),
          `${q} (limit ${limit}${near ? `, near ${near.lat},${near.lng}` : ''})`,
        ).toEqual(expected)
        searched += expected.length
      }
      if (near) {
        const all = await segmentSearch(db, q, 10)
        expect((await searchPlaces(db, q, 10)).slice(0, all.length)).toEqual(all)
      }
    }
    // Most of them answer something, so the comparison is not of empty lists.
    expect(searched).toBeGreaterThan(queries.length * 5)
  })
})

describe('street_names', () => {
  const dataset = (id: string) =>
    db.query(
      `insert into datasets (id, kind, name, source, data_date, crs) values ($1, 'roads', 'Thử', 'Thử', '2024-06-01', 'EPSG:4326')`,
      [id],
    )
  const segment = (tx: Queryable, datasetId: string, name: string, cls: string, x: number) =>
    tx.query(
      `insert into streets (dataset_id, name, class, width_m, province, ward, geom)
       values ($1, $2, $3, 8, 'Thành phố Huế', 'Phường Thử', ST_SetSRID(ST_MakeLine(ST_Point($4, 16.46), ST_Point($4 + 0.001, 16.46)), 4326))`,
      [datasetId, name, cls, x],
    )
  const counts = () =>
    db.query<{ name: string; class: string; segments: number }>(
      `select name, class, segments from street_names where name like 'Đường Đếm%' order by name, class`,
    )

  it('holds one row per street name and class with its segments, whatever inserts, renames or deletes them, and none once the dataset goes', async () => {
    const datasetId = 'street-names-counts'
    await dataset(datasetId)
    await segment(db, datasetId, 'Đường Đếm Một', 'street', 107.58)
    await segment(db, datasetId, 'Đường Đếm Một', 'street', 107.59)
    await segment(db, datasetId, 'Đường Đếm Một', 'main', 107.6)
    expect(await counts()).toEqual([
      { name: 'Đường Đếm Một', class: 'main', segments: 1 },
      { name: 'Đường Đếm Một', class: 'street', segments: 2 },
    ])
    const [row] = await db.query<{ name_key: string; name_bare: string }>(
      `select name_key, name_bare from street_names where name = 'Đường Đếm Một' and class = 'main'`,
    )
    expect(row).toEqual({ name_key: 'dem mot', name_bare: 'dem mot' })

    await db.query(`update streets set name = 'Đường Đếm Hai' where dataset_id = $1 and class = 'main'`, [datasetId])
    await db.query(`update streets set width_m = 10 where dataset_id = $1`, [datasetId])
    expect(await counts()).toEqual([
      { name: 'Đường Đếm Hai', class: 'main', segments: 1 },
      { name: 'Đường Đếm Một', class: 'street', segments: 2 },
    ])
    await db.query(`delete from streets where dataset_id = $1 and name = 'Đường Đếm Một' and ST_XMin(geom) < 107.585`, [
      datasetId,
    ])
    expect(await counts()).toEqual([
      { name: 'Đường Đếm Hai', class: 'main', segments: 1 },
      { name: 'Đường Đếm Một', class: 'street', segments: 1 },
    ])
    expect((await searchPlaces(db, 'duong dem mot', 5)).map((r) => r.label)).toEqual(['Đường Đếm Một', 'Đường Đếm Hai'])

    await db.query('delete from datasets where id = $1', [datasetId])
    expect(await counts()).toEqual([])
    expect((await searchPlaces(db, 'duong dem', 10)).filter((r) => r.label.includes('Đếm'))).toEqual([])
  })

  it('counts every segment when transactions add and remove segments of one name at once', async () => {
    const datasetId = 'street-names-together'
    await dataset(datasetId)
    try {
      for (const x of [107.61, 107.62, 107.63, 107.64]) await segment(db, datasetId, 'Đường Đếm Song Song', 'street', x)
      // Each transaction holds its change a moment before committing, so on PostgreSQL they overlap.
      const change = (work: (tx: Queryable) => Promise<unknown>) =>
        db.transaction(async (tx) => {
          await work(tx)
          await tx.query('select pg_sleep(0.05)')
        })
      const remove = (x: number) =>
        change((tx) => tx.query('delete from streets where dataset_id = $1 and ST_XMin(geom) = $2', [datasetId, x]))
      await Promise.all([
        ...[107.61, 107.62, 107.63].map(remove),
        ...[107.65, 107.66].map((x) => change((tx) => segment(tx, datasetId, 'Đường Đếm Song Song', 'street', x))),
      ])
      expect(await counts()).toEqual([{ name: 'Đường Đếm Song Song', class: 'street', segments: 3 }])
      await Promise.all([107.64, 107.65, 107.66].map(remove))
      expect(await counts()).toEqual([])
    } finally {
      await db.query('delete from datasets where id = $1', [datasetId])
    }
  })
})
