import { createWriteStream } from 'node:fs'
import { join } from 'node:path'
import { once } from 'node:events'
import { afterAll, describe, expect, it } from 'vitest'
import type { Database } from '../../server/src/db/database.ts'
import { openPglite } from '../../server/src/db/pglite.ts'
import { openPostgres } from '../../server/src/db/postgres.ts'
import { removeTempDirs, runNode, tempDir } from './process.ts'

const pgUrl = process.env.TEST_DATABASE_URL || undefined
const work = tempDir('qh-fault-import-')
afterAll(() => removeTempDirs())

/** A parcels FeatureCollection of `n` small squares in Ho Chi Minh City; 120,000 of them is ~40 MB. */
async function parcelsFile(name: string, n: number, firstParcel = 1): Promise<string> {
  const path = join(work, name)
  const out = createWriteStream(path)
  const write = async (s: string) => {
    if (!out.write(s)) await once(out, 'drain')
  }
  await write('{"type":"FeatureCollection","features":[\n')
  for (let i = 0; i < n; i++) {
    const x = 106.6 + (i % 500) * 0.0003
    const y = 10.7 + Math.floor(i / 500) * 0.0003
    const d = 0.00025
    const feature = {
      type: 'Feature',
      properties: {
        so_to: 1 + Math.floor(i / 1000),
        so_thua: firstParcel + i,
        phuong_xa: 'Phường Thử',
        tinh_tp: 'Thành phố Hồ Chí Minh',
        loai_dat: 'ODT',
      },
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [x, y],
            [x + d, y],
            [x + d, y + d],
            [x, y + d],
            [x, y],
          ],
        ],
      },
    }
    await write((i ? ',\n' : '') + JSON.stringify(feature))
  }
  out.end(']}\n')
  await once(out, 'finish')
  return path
}

type Snapshot = { parcels: number; parcelSum: number; version: number; source: string | null }

async function snapshot(db: Database, dataset: string): Promise<Snapshot> {
  const [row] = await db.query<Snapshot>(
    `select (select count(*)::int from parcels where dataset_id = $1) as parcels,
            (select coalesce(sum(parcel_no::bigint), 0)::float8 from parcels where dataset_id = $1) as "parcelSum",
            (select version::int from data_version) as version,
            (select source from datasets where id = $1) as source`,
    [dataset],
  )
  return row!
}

describe.each(pgUrl ? ['embedded PGlite', 'PostgreSQL'] : ['embedded PGlite'])(
  'an import killed midway (%s)',
  (kind) => {
    const dataDir = tempDir('qh-fault-data-')
    const env = { DATA_DIR: dataDir, DATABASE_URL: kind === 'PostgreSQL' ? pgUrl! : '', LOG_LEVEL: 'warn' }
    const dataset = `fault-kill-${Date.now().toString(36)}`
    const open = () => (kind === 'PostgreSQL' ? openPostgres(pgUrl!) : openPglite(join(dataDir, 'pg')))
    const importArgs = (file: string, source: string) => [
      file,
      '--kind',
      'parcels',
      '--crs',
      'EPSG:4326',
      '--source',
      source,
      '--date',
      '2026-01-01',
      '--dataset',
      dataset,
    ]

    afterAll(async () => {
      if (kind !== 'PostgreSQL') return
      const db = await openPostgres(pgUrl!)
      await db.query('delete from datasets where id = $1', [dataset])
      await db.close()
    })

    it('leaves the dataset exactly as it was when the replacing import is SIGKILLed while writing', async () => {
      const small = runNode(
        'server/src/cli/import.ts',
        importArgs(await parcelsFile('small.geojson', 300), 'Bản gốc'),
        env,
      )
      expect(await small.exited, small.output()).toBe(0)

      let db = await open()
      const before = await snapshot(db, dataset)
      await db.close()
      expect(before).toMatchObject({ parcels: 300, parcelSum: (300 * 301) / 2, source: 'Bản gốc' })

      const big = runNode(
        'server/src/cli/import.ts',
        importArgs(await parcelsFile('big.geojson', 120_000, 1_000_000), 'Bản thay thế'),
        env,
      )
      // Killed once the progress line shows rows written inside the import's transaction.
      let written = 0
      for (let waited = 0; written === 0; waited += 100) {
        if (big.child.exitCode !== null) throw new Error(`import ended before it was killed:\n${big.output()}`)
        if (waited > 240_000) throw new Error(`no progress from the import:\n${big.output()}`)
        const counts = [...big.output().matchAll(/đã ghi ([\d.]+)/g)].map((m) => Number(m[1]!.replace(/\./g, '')))
        written = Math.max(0, ...counts)
        await new Promise((r) => setTimeout(r, 100))
      }
      big.child.kill('SIGKILL')
      await big.exited
      expect(big.child.signalCode).toBe('SIGKILL')
      expect(big.output()).not.toMatch(/Đã nhập bộ dữ liệu/)

      // The database opens again (PGlite recovers from its write-ahead log) with the old dataset whole.
      db = await open()
      try {
        expect(await snapshot(db, dataset)).toEqual(before)
        expect(
          await db.query('select count(*)::int as n from parcels where parcel_no >= 1000000 and dataset_id = $1', [
            dataset,
          ]),
        ).toEqual([{ n: 0 }])
      } finally {
        await db.close()
      }

      // And it takes the next import as usual.
      const again = runNode(
        'server/src/cli/import.ts',
        importArgs(await parcelsFile('again.geojson', 50, 5_000), 'Bản sau'),
        env,
      )
      expect(await again.exited, again.output()).toBe(0)
      db = await open()
      try {
        expect(await snapshot(db, dataset)).toMatchObject({
          parcels: 50,
          source: 'Bản sau',
          version: before.version + 1,
        })
      } finally {
        await db.close()
      }
    })
  },
)
