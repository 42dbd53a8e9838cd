import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { call, removeTempDirs, runNode, startServer, tempDir, type ServerProc } from '../../../tests/faults/process.ts'
import type { Database } from '../db/database.ts'
import { openPostgres } from '../db/postgres.ts'

/*
 * PostgreSQL lets imports run beside the servers. Two real server processes on one database are kept
 * busy on a tile while `npm run import` adds a parcel there; the moment the import exits, both answer
 * with the new data: the tile (each had the empty one cached under the old data version) and the lookup.
 */
const url = process.env.DATABASE_URL
// Đà Lạt: no other test puts data here.
const point = { lng: 108.4583, lat: 11.9404 }
const datasetId = `beside-servers-${Date.now().toString(36)}`
const z = 17
const tileX = Math.floor(((point.lng + 180) / 360) * 2 ** z)
const tileY = Math.floor(((1 - Math.asinh(Math.tan((point.lat * Math.PI) / 180)) / Math.PI) / 2) * 2 ** z)
const tilePath = `/tiles/parcels/${z}/${tileX}/${tileY}.pbf`

describe.skipIf(!url)('an import beside two running servers on PostgreSQL', () => {
  const servers: ServerProc[] = []
  let db: Database
  let token: string

  beforeAll(async () => {
    db = await openPostgres(url!)
    const env = { DATABASE_URL: url!, DEMO_DATA: 'false', TRUST_PROXY: 'true' }
    for (const name of ['a', 'b']) servers.push(await startServer({ dataDir: tempDir(`qh-beside-${name}-`), env }))
    const account = { email: `beside-${Date.now()}@example.com`, password: 'mat-khau-du-dai-123' }
    expect(
      (
        await call(`${servers[0]!.url}/api/auth/register`, {
          method: 'POST',
          json: { name: 'Thử', ...account },
          ip: '10.9.0.1',
        })
      ).status,
    ).toBe(201)
    token = (await call(`${servers[0]!.url}/api/auth/login`, { method: 'POST', json: account, ip: '10.9.0.2' })).body
      .data.access_token
  })

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()))
    await db?.query('delete from datasets where id = $1', [datasetId])
    await db?.close()
    removeTempDirs()
  })

  it('both servers serve the new tile and lookup the moment the import exits', async () => {
    for (const s of servers) {
      expect((await call(`${s.url}${tilePath}`)).status).toBe(204)
      const before = await call(`${s.url}/api/planning?lat=${point.lat}&lng=${point.lng}`, { token })
      // Outside every dataset's coverage (LocationIncorrect), or inside it with nothing here (NotFound).
      expect([400, 404], JSON.stringify(before.body)).toContain(before.status)
    }
    const d = 0.0002
    const { lng, lat } = point
    const file = join(tempDir('qh-beside-file-'), 'thua-da-lat.geojson')
    const ring = [
      [lng - d, lat - d],
      [lng + d, lat - d],
      [lng + d, lat + d],
      [lng - d, lat + d],
      [lng - d, lat - d],
    ]
    const parcel = {
      so_to: 7,
      so_thua: 4242,
      phuong_xa: 'Phường Xuân Hương - Đà Lạt',
      tinh_tp: 'Lâm Đồng',
      loai_dat: 'ODT',
    }
    writeFileSync(
      file,
      JSON.stringify({
        type: 'FeatureCollection',
        features: [{ type: 'Feature', properties: parcel, geometry: { type: 'Polygon', coordinates: [ring] } }],
      }),
    )

    // Busy servers: each keeps its data version fresh and its empty tile cached while the import runs.
    let busy = true
    const keepBusy = Promise.all(
      servers.map(async (s) => {
        while (busy) {
          await call(`${s.url}${tilePath}`)
          await new Promise((r) => setTimeout(r, 50))
        }
      }),
    )
    const importer = runNode(
      'server/src/cli/import.ts',
      [file, '--kind', 'parcels', '--source', 'Thử', '--date', '2025-01-01', '--dataset', datasetId],
      { DATABASE_URL: url! },
    )
    const code = await importer.exited
    busy = false
    const [tileA, tileB, lookupA, lookupB] = await Promise.all([
      ...servers.map((s) => call(`${s.url}${tilePath}`)),
      ...servers.map((s) => call(`${s.url}/api/planning?lat=${lat}&lng=${lng}`, { token })),
    ])
    await keepBusy
    expect(code, importer.output()).toBe(0)
    expect([tileA!.status, tileB!.status]).toEqual([200, 200])
    expect(tileA!.headers.get('etag')).toBe(tileB!.headers.get('etag'))
    expect([lookupA!.body.data.parcel.parcel_no, lookupB!.body.data.parcel.parcel_no]).toEqual([4242, 4242])
  })
})
