import { gdalVectorFormats } from '../types.ts'
import type { Geometry, Point } from 'geojson'
import { foldVietnamese } from '#core/text/fold.ts'
import { RowError } from '../errors.ts'
import { prepareGeometry } from '../geometry.ts'
import { date, number, requireValue, text } from '../values.ts'
import { emptyResult, unnestFrom, type Column, type Kind } from './kind.ts'

type Row = {
  n: number
  lng: number
  lat: number
  observedAt: string
  price: number
  area: number
  frontage: number | null
  alley: number | null
  floors: number | null
  kind: string
}

/**
 * Market transactions (giao dịch thị trường). In a CSV the place is `lat`/`lng` for EPSG:4326, or
 * for VN-2000 `x`/`y` in the Vietnamese order: X = northing, Y = easting.
 */
export const comparables: Kind = {
  formats: ['csv', 'geojson', 'shapefile', ...gdalVectorFormats],
  geometryTables: ['comparables'],
  fields: {
    lat: { columns: ['lat', 'vi_do', 'latitude'], label: 'vĩ độ (lat)' },
    lng: { columns: ['lng', 'lon', 'kinh_do', 'longitude'], label: 'kinh độ (lng)' },
    x: { columns: ['x', 'toa_do_x', 'x_vn2000'], label: 'tọa độ X VN-2000, hướng bắc (x)' },
    y: { columns: ['y', 'toa_do_y', 'y_vn2000'], label: 'tọa độ Y VN-2000, hướng đông (y)' },
    observed_at: {
      columns: ['ngay_giao_dich', 'ngay', 'observed_at', 'date'],
      label: 'ngày giao dịch (observed_at)',
      required: true,
    },
    price_vnd: { columns: ['gia', 'gia_ban', 'price_vnd', 'price'], label: 'giá (price_vnd)', required: true },
    area_m2: { columns: ['dien_tich', 'area_m2', 'area'], label: 'diện tích (area_m2)', required: true },
    frontage_m: { columns: ['mat_tien', 'frontage_m', 'frontage'], label: 'mặt tiền m (frontage_m)' },
    alley_width_m: {
      columns: ['hem', 'do_rong_hem', 'alley_width_m', 'alley_width'],
      label: 'độ rộng hẻm m (alley_width_m)',
    },
    floors: { columns: ['so_tang', 'tang', 'floors'], label: 'số tầng (floors)' },
    kind: { columns: ['loai', 'loai_bds', 'kind'], label: 'loại bất động sản (kind)' },
  },
  create(ctx) {
    let rows: Row[] = []
    const pointFromFields = (get: (f: string) => unknown): Geometry => {
      if (ctx.crs.kind === 'wgs84') {
        const lat = requireValue(number(get('lat'), 'vĩ độ'), 'vĩ độ (lat)')
        const lng = requireValue(number(get('lng'), 'kinh độ'), 'kinh độ (lng)')
        return { type: 'Point', coordinates: [lng, lat] }
      }
      const north = requireValue(number(get('x'), 'tọa độ X'), 'tọa độ X VN-2000 (x, hướng bắc)')
      const east = requireValue(number(get('y'), 'tọa độ Y'), 'tọa độ Y VN-2000 (y, hướng đông)')
      return { type: 'Point', coordinates: [east, north] }
    }
    return {
      add(rec, get) {
        const { geometry } = prepareGeometry(rec.geometry ?? pointFromFields(get), ['point'], ctx.project, ctx.crs)
        const [lng, lat] = (geometry as Point).coordinates as [number, number]
        const price = requireValue(number(get('price_vnd'), 'giá', { min: 1, thousands: true }), 'giá (price_vnd)')
        const area = requireValue(number(get('area_m2'), 'diện tích', { min: 0 }), 'diện tích (area_m2)')
        if (area === 0) throw new RowError('diện tích bằng 0')
        const kindText = text(get('kind'))
        rows.push({
          n: rec.n,
          lng,
          lat,
          observedAt: requireValue(date(get('observed_at'), 'ngày giao dịch'), 'ngày giao dịch (observed_at)'),
          price: Math.round(price * ctx.priceUnit),
          area,
          frontage: number(get('frontage_m'), 'mặt tiền', { min: 0 }),
          alley: number(get('alley_width_m'), 'độ rộng hẻm', { min: 0 }),
          floors: number(get('floors'), 'số tầng', { integer: true, min: 0, max: 200 }),
          // "Nhà phố" → nha_pho, the form the demo data and the valuation use.
          kind:
            kindText === null
              ? 'nha_pho'
              : foldVietnamese(kindText)
                  .replace(/[^a-z0-9]+/g, '_')
                  .replace(/^_|_$/g, ''),
        })
      },
      pending: () => rows.length,
      drain: () => rows.splice(0),
      async flush(tx) {
        const batch = rows
        rows = []
        if (batch.length === 0) return emptyResult()
        const cols: Column[] = [
          { name: 'lng', type: 'float8', values: batch.map((r) => r.lng) },
          { name: 'lat', type: 'float8', values: batch.map((r) => r.lat) },
          { name: 'observed_at', type: 'date', values: batch.map((r) => r.observedAt) },
          { name: 'price_vnd', type: 'int8', values: batch.map((r) => r.price) },
          { name: 'area_m2', type: 'float8', values: batch.map((r) => r.area) },
          { name: 'frontage_m', type: 'float8', values: batch.map((r) => r.frontage) },
          { name: 'alley_width_m', type: 'float8', values: batch.map((r) => r.alley) },
          { name: 'floors', type: 'int', values: batch.map((r) => r.floors) },
          { name: 'kind', type: 'text', values: batch.map((r) => r.kind) },
        ]
        const [r] = await tx.query<{ inserted: number }>(
          `with ins as (
             insert into comparables (dataset_id, geom, observed_at, price_vnd, area_m2, frontage_m, alley_width_m, floors, kind)
             select $1, ST_SetSRID(ST_MakePoint(lng, lat), 4326), observed_at, price_vnd, area_m2, frontage_m, alley_width_m, floors, kind
             from ${unnestFrom(cols, 2)}
             returning 1)
           select count(*)::int as inserted from ins`,
          [ctx.datasetId, ...cols.map((c) => c.values)],
        )
        return { inserted: r?.inserted ?? 0, repaired: 0, rejected: [] }
      },
    }
  },
}
