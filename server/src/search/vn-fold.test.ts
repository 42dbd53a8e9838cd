import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { foldVietnamese } from '#core/text/fold.ts'
import { foldCases, keyCases, keyOf, kindWords, vietnameseText } from '#core/text/test-fold-cases.ts'
import type { Database } from '../db/index.ts'
import { testDb } from '../testing/test-app.ts'

let db: Database
beforeAll(async () => {
  db = await testDb()
})

/** The database's vn_fold() of each text, in one statement. */
async function sqlFold(texts: string[]): Promise<string[]> {
  const rows = await db.query<{ folded: string }>(
    'select vn_fold(t) as folded from unnest($1::text[]) with ordinality as u(t, i) order by i',
    [texts],
  )
  return rows.map((r) => r.folded)
}

/** The database's key of each name, as the generated name_key and street_key columns compute it. */
async function sqlKey(texts: string[]): Promise<string[]> {
  const rows = await db.query<{ key: string }>(
    'select vn_name_key(vn_fold(t)) as key from unnest($1::text[]) with ordinality as u(t, i) order by i',
    [texts],
  )
  return rows.map((r) => r.key)
}

describe('vn_fold() in the database', () => {
  it('folds the shared cases exactly as the app and the server do (core/text/fold.ts)', async () => {
    expect(await sqlFold(foldCases)).toEqual(foldCases.map(foldVietnamese))
  })

  it('agrees with core/text/fold.ts on any Vietnamese text, spaces and decomposed letters included', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(vietnameseText, { minLength: 1, maxLength: 50 }), async (texts) => {
        expect(await sqlFold(texts)).toEqual(texts.map(foldVietnamese))
      }),
      { numRuns: 40 },
    )
  })
})

describe('vn_name_key() in the database', () => {
  it('keys the shared names as the tests state the rule, so a price table and a map meet on "Số 7" and "Huế"', async () => {
    expect(await sqlKey(keyCases.map(([name]) => name))).toEqual(keyCases.map(([, key]) => key))
    expect(keyCases.map(([name]) => keyOf(name))).toEqual(keyCases.map(([, key]) => key))
  })

  it('drops one leading kind word from any Vietnamese text and nothing else', async () => {
    const named = fc
      .tuple(fc.option(fc.constantFrom(...kindWords), { nil: undefined }), vietnameseText)
      .map(([word, text]) => (word === undefined ? text : `${word} ${text}`))
    await fc.assert(
      fc.asyncProperty(fc.array(named, { minLength: 1, maxLength: 50 }), async (texts) => {
        expect(await sqlKey(texts)).toEqual(texts.map(keyOf))
      }),
      { numRuns: 40 },
    )
  })

  it('computes the stored keys of streets and price rows by the same rule', async () => {
    await db.query(
      `insert into datasets (id, kind, name, source, data_date, crs) values ('key-rule', 'prices', 'k', 'k', '2026-01-01', 'EPSG:4326')`,
    )
    try {
      await db.query(
        `insert into streets (dataset_id, name, class, width_m, province, geom) values ('key-rule', 'Phố Huế', 'street', 10, 'Thành phố Hà Nội',
           ST_SetSRID(ST_MakeLine(ST_Point(105.85, 21.01), ST_Point(105.851, 21.01)), 4326))`,
      )
      await db.query(
        `insert into price_rows (dataset_id, province, street_name, year, vt1, source) values ('key-rule', 'Thành phố Hà Nội', 'HUẾ', 2026, 1, 'k')`,
      )
      const rows = await db.query<{ name_key: string; street_key: string }>(
        `select s.name_key, pr.street_key from streets s join price_rows pr using (dataset_id) where s.dataset_id = 'key-rule'`,
      )
      expect(rows).toEqual([{ name_key: 'hue', street_key: 'hue' }])
    } finally {
      await db.query(`delete from datasets where id = 'key-rule'`)
    }
  })
})
