/**
 * The one match between a place and the state price table: migration 019's `price_row_at` (the street
 * the place fronts, the segment whose span holds it, the table in force on the date). The valuation's
 * own row and every sale's location term read it through these fragments, so a parcel and the sales
 * beside it are priced by the same rule.
 */

/** The columns of a matched row the answer shows. */
export type PriceRowRecord = {
  year: number
  street_name: string
  segment_from: string
  segment_to: string
  district: string
  source: string
  decision_no: string
  decision_date: string | null
  effective_from: string
  vt1: number
  vt2: number | null
  vt3: number | null
  vt4: number | null
  /** How the row was found (see price_row_at): 'linked', 'only', 'whole', 'span' or 'nearest'. */
  how: string
  /** Crossings the street's rows name that no street held. */
  unknown: string[]
  /** The land-price adjustment coefficient K in force for the row's place and year, when one was imported. */
  k: number | null
}

/**
 * The matched row of the parcel `parcelId` as of `asOf` (SQL expressions: a parameter or a subquery),
 * with the K coefficient of the year in force for its district, ward or street (the most specific).
 */
export const PRICE_ROW_SQL = (
  parcelId: string,
  asOf: string,
) => `select pr.year, pr.street_name, pr.segment_from, pr.segment_to,
       pr.district, pr.source, pr.decision_no, pr.decision_date::text as decision_date,
       coalesce(pr.effective_from, make_date(pr.year, 1, 1))::text as effective_from,
       pr.vt1::float8 as vt1, pr.vt2::float8 as vt2, pr.vt3::float8 as vt3, pr.vt4::float8 as vt4, m.how, m.unknown,
       (select c.k from price_coefficients c
         where c.province = p.province and c.year <= extract(year from ${asOf})
           and (c.area = '' or c.area_fold in (vn_fold(p.district), vn_fold(p.ward)))
           and (c.street = '' or c.street_key = pr.street_key)
         order by c.year desc, (c.street <> '') desc, (c.area <> '') desc, c.id limit 1) as k
     from parcels p
     cross join lateral price_row_at(p.geom, p.street_id, p.province, p.district, (${asOf})::date) m
     join price_rows pr on pr.id = m.row_id
     where p.id = ${parcelId}`

/** VT1 of the row matched for parcel alias `p` as of `asOf` (an SQL date): a sale's location term. */
export const vt1AtSql = (p: string, asOf: string) =>
  `(select pr.vt1::float8 from price_row_at(${p}.geom, ${p}.street_id, ${p}.province, ${p}.district, ${asOf}) m join price_rows pr on pr.id = m.row_id)`

/** What the answer says about a row found other than between two known crossings; null when nothing needs saying. */
export function matchNote(row: Pick<PriceRowRecord, 'how' | 'unknown'>): string | null {
  if (row.how !== 'nearest') return null
  const why =
    row.unknown.length > 0
      ? `không thấy trên bản đồ giao lộ ${row.unknown.join(', ')}`
      : 'thửa nằm ngoài mọi đoạn của bảng giá'
  return `Chưa xác định được đoạn chứa thửa đất (${why}); đã chọn đoạn gần nhất, ưu tiên đoạn cùng quận/huyện.`
}
