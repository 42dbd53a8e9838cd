import { gdalVectorFormats } from '../types.ts'
import type { Geometry } from 'geojson'
import { alleyWord } from '#core/text/alley.ts'
import { foldVietnamese } from '#core/text/fold.ts'
import { RowError } from '../errors.ts'
import { prepareGeometry, toWkt } from '../geometry.ts'
import { number, provinceName, requireValue, text } from '../values.ts'
import { insertPolygons, srcCte, type BatchResult, type Column, type Kind } from './kind.ts'

type StreetClass = 'main' | 'street' | 'alley'
type Row = {
  n: number
  geometry: Geometry
  name: string
  cls: StreetClass
  width: number
  province: string
  ward: string
}

/**
 * The street class from a column ("trục chính", "hẻm", "alley"…), or, without one, from the name:
 * hẻm / ngõ / ngách / kiệt are alleys, anything else a street.
 */
export function streetClass(v: string | null, name: string): StreetClass {
  if (v === null) return alleyWord(name) ? 'alley' : 'street'
  const f = foldVietnamese(v)
  if (/^(main|chinh|truc chinh|duong chinh|truc)$/.test(f)) return 'main'
  if (/^(alley|hem|ngo|ngach|kiet)$/.test(f)) return 'alley'
  if (/^(street|duong|pho|nhanh)$/.test(f)) return 'street'
  throw new RowError(`cấp đường không rõ: ${JSON.stringify(v)} (chính, đường hoặc hẻm)`)
}

/** Lines become streets (a MultiLineString is merged, then split into its parts); polygons become road reserves (lộ giới). */
export const roads: Kind = {
  formats: ['geojson', 'shapefile', ...gdalVectorFormats],
  geometryTables: ['streets', 'road_reserves'],
  fields: {
    name: { columns: ['ten_duong', 'name', 'ten', 'TENDUONG', 'road_name'], label: 'tên đường (name)', required: true },
    width_m: {
      columns: ['lo_gioi', 'be_rong', 'do_rong', 'width_m', 'width', 'rong'],
      label: 'bề rộng/lộ giới m (width_m)',
      required: true,
    },
    class: { columns: ['cap_duong', 'loai_duong', 'class'], label: 'cấp đường (class)' },
    province: { columns: ['tinh_tp', 'province', 'tinh', 'thanh_pho'], label: 'tỉnh/thành phố (province)' },
    ward: { columns: ['phuong_xa', 'ward', 'xa', 'phuong'], label: 'phường/xã (ward)' },
  },
  create(ctx) {
    let lines: Row[] = []
    let polygons: Row[] = []
    return {
      add(rec, get) {
        const name = requireValue(text(get('name')), 'tên đường (name)')
        const width = requireValue(number(get('width_m'), 'bề rộng', { min: 0.1, max: 500 }), 'bề rộng (width_m)')
        const cls = streetClass(text(get('class')), name)
        const prepared = prepareGeometry(rec.geometry, ['line', 'polygon'], ctx.project, ctx.crs)
        const province = provinceName(get('province'))
        const ward = text(get('ward')) ?? ''
        if (prepared.cls === 'polygon') {
          polygons.push({ n: rec.n, geometry: prepared.geometry, name, cls, width, province: province ?? '', ward })
        } else {
          // Streets are searched by province; a road reserve belongs to its plan's area instead.
          lines.push({
            n: rec.n,
            geometry: prepared.geometry,
            name,
            cls,
            width,
            province: requireValue(province, 'tỉnh/thành phố (province)'),
            ward,
          })
        }
      },
      pending: () => lines.length + polygons.length,
      drain: () => [...lines.splice(0), ...polygons.splice(0)],
      async flush(tx) {
        const [l, p] = [lines, polygons]
        lines = []
        polygons = []
        const out: BatchResult = { inserted: 0, repaired: 0, rejected: [] }
        if (l.length > 0) {
          const cols: Column[] = [
            { name: 'n', type: 'int', values: l.map((r) => r.n) },
            { name: 'g', type: 'text', values: l.map((r) => toWkt(r.geometry)) },
            { name: 'name', type: 'text', values: l.map((r) => r.name) },
            { name: 'class', type: 'text', values: l.map((r) => r.cls) },
            { name: 'width_m', type: 'float8', values: l.map((r) => r.width) },
            { name: 'province', type: 'text', values: l.map((r) => r.province) },
            { name: 'ward', type: 'text', values: l.map((r) => r.ward) },
          ]
          const [r] = await tx.query<{ inserted: number; emptied: number[] }>(
            `with ${srcCte(cols, 2)}, parts as materialized (
                select n, name, "class", width_m, province, ward,
                  (ST_Dump(case when GeometryType(raw) = 'MULTILINESTRING' then ST_LineMerge(raw) else raw end)).geom as geom
                from src
              ), ins as (
                insert into streets (dataset_id, name, "class", width_m, province, ward, geom)
                select $1, name, "class", width_m, province, ward, geom from parts
                where GeometryType(geom) = 'LINESTRING' and ST_Length(geom) > 0
                returning 1
              )
              select (select count(*)::int from ins) as inserted,
                coalesce((select array_agg(n) from src where not exists (
                  select 1 from parts p where p.n = src.n and GeometryType(p.geom) = 'LINESTRING' and ST_Length(p.geom) > 0)), '{}')::int[] as emptied`,
            [ctx.datasetId, ...cols.map((c) => c.values)],
          )
          out.inserted += r?.inserted ?? 0
          for (const n of r?.emptied ?? []) out.rejected.push({ n, reason: 'đường có độ dài bằng 0' })
        }
        if (p.length > 0) {
          const r = await insertPolygons(tx, 'road_reserves', ctx.datasetId, p, [
            { name: 'road_name', type: 'text', values: p.map((x) => x.name) },
            { name: 'width_m', type: 'float8', values: p.map((x) => x.width) },
          ])
          out.inserted += r.inserted
          out.repaired += r.repaired
          out.rejected.push(...r.rejected)
        }
        return out
      },
    }
  },
}
