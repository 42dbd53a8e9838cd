import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parcelsData, searchData } from '#core/contract/lookups.ts'
import { fillDataDir } from '../../../tests/support/prepared-data.ts'
import { createTestUser, type TestUser } from '../accounts/test-user.ts'
import { claimEmbeddedDatabase } from '../db/owner-lock.ts'
import { createTestApp, type TestApp } from '../testing/test-app.ts'
import { readDataVersion } from '../tiles/version.ts'
import { formatDataset, listDatasets, removeDataset } from './datasets.ts'
import { importFile } from './import-file.ts'

const root = join(import.meta.dirname, '../../..')
const tmp = mkdtempSync(join(tmpdir(), 'qh-datasets-'))
let t: TestApp
let user: TestUser
beforeAll(async () => {
  t = await createTestApp({ DAILY_LOOKUP_LIMIT: '1000' })
  user = await createTestUser(t)
})
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

function datasetsCli(args: string[], dataDir: string) {
  return spawnSync(process.execPath, ['server/src/cli/datasets.ts', ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'warn' },
    timeout: 300_000,
  })
}

/** Two 10 m parcels on tờ 31 in Huế (WGS84). */
function parcelFile(): string {
  const file = join(tmp, 'to-31.geojson')
  const features = [0, 1].map((i) => {
    const [x, y, d] = [107.58 + i * 0.0002, 16.46, 0.0001]
    return {
      type: 'Feature',
      properties: {
        so_to: 31,
        so_thua: 501 + i,
        dia_chi: `${2 + i} Đống Đa`,
        phuong_xa: 'Phường Phú Nhuận',
        tinh_tp: 'Huế',
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
  })
  writeFileSync(file, JSON.stringify({ type: 'FeatureCollection', features }))
  return file
}

describe('datasets', () => {
  it('lists a dataset with its kind, rows, source, dates, bounds and CRS, and removes it with everything it holds', async () => {
    const datasetId = `ds-${Date.now().toString(36)}`
    await importFile(t.db, {
      file: parcelFile(),
      kind: 'parcels',
      source: 'VPĐKĐĐ Huế (thử)',
      date: '2024-05-20',
      name: 'Tờ 31',
      datasetId,
    })
    const listed = (await listDatasets(t.db)).find((d) => d.id === datasetId)
    expect(listed).toMatchObject({
      kind: 'parcels',
      name: 'Tờ 31',
      source: 'VPĐKĐĐ Huế (thử)',
      dataDate: '2024-05-20',
      crs: 'EPSG:4326',
      rows: 2,
    })
    const [w, s, e, n] = listed!.bounds!
    expect([w, s, e, n].map((v) => Number(v.toFixed(4)))).toEqual([107.58, 16.46, 107.5803, 16.4601])
    const lines = formatDataset(listed!)
    expect(lines[0]).toBe(`${datasetId} (parcels): Tờ 31`)
    expect(lines[1]).toMatch(
      /^ {2}2 dòng · nguồn: VPĐKĐĐ Huế \(thử\) · ngày dữ liệu 2024-05-20 · nhập lúc \d\d:\d\d ngày \d\d\/\d\d\/\d{4}$/,
    )
    expect(lines[2]).toBe(
      '  hệ tọa độ gốc EPSG:4326 · phạm vi 107.58000, 16.46000 – 107.58030, 16.46010 (kinh độ, vĩ độ WGS84)',
    )

    const lookup = () => t.request('/api/parcels?province=Huế&sheet_no=31&parcel_no=501', { token: user.token })
    expect(parcelsData.parse((await lookup()).body.data)).toHaveLength(1)
    const before = await readDataVersion(t.db)

    const { removed, dataVersion } = await removeDataset(t.db, datasetId)
    expect(removed).toMatchObject({ id: datasetId, rows: 2 })
    expect(dataVersion).toBe(before + 1)
    expect(await readDataVersion(t.db)).toBe(before + 1)
    expect((await listDatasets(t.db)).map((d) => d.id)).not.toContain(datasetId)
    // The tờ/thửa lookup no longer finds the parcel, and the search no longer finds its ward.
    expect((await lookup()).status).toBe(404)
    const search = await t.request(`/api/search?q=${encodeURIComponent('phu nhuan')}`, { token: user.token })
    expect(searchData.parse(search.body.data).filter((r) => r.detail.includes('Huế'))).toEqual([])
  })

  it('changes nothing for an unknown id and names the datasets there are', async () => {
    const before = await readDataVersion(t.db)
    const ids = (await listDatasets(t.db)).map((d) => d.id)
    await expect(removeDataset(t.db, 'khong-co')).rejects.toThrow(/^Không có bộ dữ liệu "khong-co"; /)
    expect((await listDatasets(t.db)).map((d) => d.id)).toEqual(ids)
    expect(await readDataVersion(t.db)).toBe(before)
  })
})

describe('npm run datasets', () => {
  it('answers a bad id with one line and exit code 1', { timeout: 300_000 }, async () => {
    // The embedded database as a first start without the demo data leaves it: migrated, no dataset.
    await fillDataDir(join(tmp, 'data'), { DEMO_DATA: 'false' })
    const bad = datasetsCli(['remove', 'khong-co'], join(tmp, 'data'))
    expect(bad.stderr).toBe(
      'Không xóa được, cơ sở dữ liệu không thay đổi: Không có bộ dữ liệu "khong-co"; chưa có bộ dữ liệu nào (xem npm run datasets)\n',
    )
    expect(bad.status).toBe(1)
  })

  it('answers a wrong command line with one line and exit code 2, before opening any database', () => {
    const wrong = datasetsCli(['xoa', 'x'], join(tmp, 'never-opened'))
    expect(wrong.status).toBe(2)
    expect(wrong.stderr).toMatch(
      /^Lỗi \/ Error: lệnh không hợp lệ \/ unknown command: "xoa"\. Cách dùng \/ Usage: npm run datasets/,
    )
    expect(wrong.stderr.trim().split('\n')).toHaveLength(1)
    expect(existsSync(join(tmp, 'never-opened'))).toBe(false)
  })

  it('refuses with one line beside a running server on the embedded database', () => {
    const dataDir = join(tmp, 'in-use')
    mkdirSync(dataDir)
    const held = claimEmbeddedDatabase(join(dataDir, 'pg'))
    try {
      const res = datasetsCli(['remove', 'demo'], dataDir)
      expect(res.status).toBe(1)
      expect(res.stderr).toMatch(
        new RegExp(`^Không thực hiện được: Cơ sở dữ liệu nhúng .* đang được tiến trình ${process.pid} mở.*\\n$`),
      )
      expect(res.stderr.trim().split('\n')).toHaveLength(1)
    } finally {
      held.release()
    }
  })
})
