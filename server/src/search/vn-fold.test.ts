import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { foldVietnamese } from '#core/text/fold.ts'
import { foldCases, vietnameseText } from '#core/text/test-fold-cases.ts'
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
