import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseImportArgs, usage, UsageError } from './args.ts'

const base = ['thua.geojson', '--kind', 'parcels', '--source', 'Sở TN&MT', '--date', '2024-06-01']

describe('parseImportArgs', () => {
  it('shows in its usage every kind the command imports, the scans and the basemap included, and the dry run', () => {
    for (const kind of ['parcels', 'planning', 'roads', 'prices', 'comparables', 'areas', 'overlay', 'basemap'])
      expect(usage).toMatch(new RegExp(`--kind [a-z|]*\\b${kind}\\b`))
    expect(usage).toContain('--dry-run')
    expect(usage).toContain('--list-layers')
    expect(
      parseImportArgs(['a.shp', '--kind', 'parcels', '--source', 'x', '--date', '2024-06-01', '--dry-run']),
    ).toMatchObject({
      dryRun: true,
    })
  })

  it('reads a full command line into import options', () => {
    const parsed = parseImportArgs([
      ...base,
      '--crs',
      'vn2000:105.75',
      '--map',
      'sheet_no=SO_TO_BD',
      '--map',
      'parcel_no=SO_THUA_',
      '--set',
      'province=Thành phố Hồ Chí Minh',
      '--dataset',
      'q1-2024',
      '--name',
      'Bản đồ địa chính',
    ])
    expect(parsed).toEqual({
      help: false,
      dryRun: false,
      options: {
        file: 'thua.geojson',
        kind: 'parcels',
        crs: { kind: 'vn2000', meridian: 105.75 },
        source: 'Sở TN&MT',
        date: '2024-06-01',
        name: 'Bản đồ địa chính',
        datasetId: 'q1-2024',
        map: { sheet_no: 'SO_TO_BD', parcel_no: 'SO_THUA_' },
        set: { province: 'Thành phố Hồ Chí Minh' },
        encoding: undefined,
        priceUnit: undefined,
      },
    })
  })

  it.each([
    [['--kind', 'parcels', '--source', 's', '--date', '2024-01-01'], /thiếu tệp.*missing the file/],
    [['a.geojson', '--source', 's', '--date', '2024-01-01'], /thiếu --kind.*missing --kind/],
    [['a.geojson', '--kind', 'houses', '--source', 's', '--date', '2024-01-01'], /--kind không hợp lệ.*invalid --kind/],
    [[...base, '--crs', 'EPSG:3857'], /--crs không hợp lệ.*invalid --crs/],
    [['a.geojson', '--kind', 'parcels', '--date', '2024-01-01'], /thiếu --source.*missing --source/],
    [['a.geojson', '--kind', 'parcels', '--source', 's', '--date', '01/06/2024'], /YYYY-MM-DD/],
    [[...base, '--map', 'so_to'], /trường=giá trị.*field=value/],
    [[...base, '--map', 'colour=MAU'], /không có trường "colour".*no field "colour"/],
    [[...base, '--price-unit', '0'], /--price-unit/],
    [[...base, '--dataset', 'có dấu'], /--dataset/],
    [[...base, '--bogus'], /tùy chọn không hợp lệ.*bad option.*--bogus/],
    [[...base, 'second.geojson'], /một tệp.*one file/],
  ])('rejects %j with a bilingual reason', (argv, reason) => {
    expect(() => parseImportArgs(argv)).toThrow(UsageError)
    expect(() => parseImportArgs(argv)).toThrow(reason)
  })
})

describe('npm run import', () => {
  it('exits with code 2 and the usage line on a bad command line, before touching any database', () => {
    const cli = join(import.meta.dirname, '../cli/import.ts')
    const res = spawnSync(process.execPath, [cli, 'thua.geojson', '--kind', 'houses'], {
      encoding: 'utf8',
      env: { ...process.env, DATABASE_URL: '' },
    })
    expect(res.status).toBe(2)
    expect(res.stderr).toContain('Lỗi / Error: --kind không hợp lệ / invalid --kind: "houses"')
    expect(res.stderr).toContain(
      'Cách dùng / Usage: npm run import -- <tệp/file> --kind parcels|planning|roads|prices|comparables',
    )
  })
})
