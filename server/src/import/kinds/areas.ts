import type { Geometry } from 'geojson'
import { foldVietnamese } from '#core/text/fold.ts'
import { adoptBoundarySet, parseBeforeText, REORGANISED_ON } from '../../places/boundaries.ts'
import { RowError } from '../errors.ts'
import { prepareGeometry } from '../geometry.ts'
import { gdalVectorFormats } from '../types.ts'
import { provinceName, requireValue, text } from '../values.ts'
import { emptyResult, insertPolygons, type Kind } from './kind.ts'

type Level = 'province' | 'district' | 'ward'
type Row = {
  n: number
  geometry: Geometry
  name: string
  level: Level
  district: string
  province: string
  /** The former units of a ward of 1 July 2025 or later, as JSON; null for older units. */
  before: string | null
}

// The unit types files write (TYPE_3 "Quận", "Huyện", an English "Urban District", a code…), folded.
const levels: Record<string, Level> = {
  tinh: 'province',
  province: 'province',
  'thanh pho truc thuoc trung uong': 'province',
  quan: 'district',
  huyen: 'district',
  'thi xa': 'district',
  'thanh pho': 'district',
  district: 'district',
  'urban district': 'district',
  phuong: 'ward',
  xa: 'ward',
  'dac khu': 'ward',
  'thi tran': 'ward',
  ward: 'ward',
  commune: 'ward',
  township: 'ward',
}

/**
 * The level of an administrative unit as the file names it. "Thành phố" alone is a city under a province
 * before 1 July 2025 (--set level=province for Đà Nẵng itself), and a province from then on, when no
 * district is left (`today`).
 */
export function areaLevel(v: string, today = false): Level {
  const folded = foldVietnamese(v)
  if (today && folded === 'thanh pho') return 'province'
  const level = levels[folded]
  if (!level)
    throw new RowError(
      `cấp đơn vị hành chính không rõ: ${JSON.stringify(v)} (cần tỉnh, quận/huyện/thị xã/thành phố hoặc phường/xã/thị trấn)`,
    )
  return level
}

/**
 * Administrative areas (provinces, districts, wards) into admin_units, names as the file writes them:
 * the search folds diacritics, so "Ngu Hành Son" from a GADM file is found as "Ngũ Hành Sơn". A set
 * dated from 1 July 2025 is today's: each ward keeps the old units merged into it (`before_2025`).
 */
export const areas: Kind = {
  formats: ['geojson', 'shapefile', ...gdalVectorFormats],
  geometryTables: ['admin_units'],
  fields: {
    name: {
      columns: ['ten', 'ten_dvhc', 'name', 'NAME_4', 'NAME_3', 'TEN_XA', 'TEN_HUYEN'],
      label: 'tên đơn vị (name)',
      required: true,
    },
    level: {
      columns: ['cap', 'cap_dvhc', 'level', 'loai', 'TYPE_4', 'TYPE_3', 'ENGTYPE_3'],
      label: 'cấp (level)',
      required: true,
    },
    district: { columns: ['quan_huyen', 'district', 'huyen', 'quan'], label: 'quận/huyện của phường/xã (district)' },
    province: { columns: ['tinh_tp', 'province', 'tinh', 'NAME_2', 'TENTINH'], label: 'tỉnh/thành phố (province)' },
    // The old units merged into a ward, as the source writes them ("Phường 15, Phường 16 (quận Gò Vấp)").
    before_2025: {
      columns: ['before_2025', 'a05_truocsn', 'truoc_sap_nhap', 'truocsn', 'don_vi_cu'],
      label: 'đơn vị cũ trước 1/7/2025 (before_2025)',
    },
  },
  // A set of today's units gets the old → new rules and replaces the shipped boundaries (places/boundaries.ts).
  async finish(tx, datasetId) {
    await adoptBoundarySet(tx, datasetId)
  },
  create(ctx) {
    const today = ctx.date >= REORGANISED_ON
    let rows: Row[] = []
    return {
      add(rec, get) {
        const name = requireValue(text(get('name')), 'tên đơn vị (name)')
        const level = areaLevel(requireValue(text(get('level')), 'cấp (level)'), today)
        const { geometry } = prepareGeometry(rec.geometry, ['polygon'], ctx.project, ctx.crs)
        const province =
          level === 'province'
            ? (provinceName(name) ?? name)
            : requireValue(provinceName(get('province')), 'tỉnh/thành phố (province)')
        rows.push({
          n: rec.n,
          geometry,
          name,
          level,
          district: level === 'ward' ? (text(get('district')) ?? '') : '',
          province,
          // Filled from the old → new rules where they name the ward, once the set is in (finish).
          before:
            level === 'ward' && today
              ? JSON.stringify(parseBeforeText(text(get('before_2025')) ?? '', province))
              : null,
        })
      },
      pending: () => rows.length,
      drain: () => rows.splice(0),
      async flush(tx) {
        const batch = rows
        rows = []
        if (batch.length === 0) return emptyResult()
        return insertPolygons(tx, 'admin_units', ctx.datasetId, batch, [
          { name: 'level', type: 'text', values: batch.map((r) => r.level) },
          { name: 'name', type: 'text', values: batch.map((r) => r.name) },
          { name: 'district', type: 'text', values: batch.map((r) => r.district) },
          { name: 'province', type: 'text', values: batch.map((r) => r.province) },
          { name: 'before_2025', type: 'jsonb', values: batch.map((r) => r.before) },
        ])
      },
    }
  },
}
