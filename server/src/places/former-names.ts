import type { SearchResult } from '#core/contract/lookups.ts'
import { provinceKey, resolveProvince } from '#core/geo/provinces.ts'
import type { Queryable } from '../db/database.ts'
import { unitKey, unitLevel } from './unit-key.ts'

/** A kind word anywhere in a folded query ("phuong 12 quan go vap" → "12 go vap"), as unitKey drops the first. */
const KIND_WORD = /\b(thanh pho|thi tran|thi xa|dac khu|phuong|quan|huyen|tinh|xa|tp|tx|tt)\b\.?/g

/** The query's words for matching unit keys: punctuation and every kind word gone, numbers without leading zeros. */
export function formerQueryKey(folded: string): string {
  return unitKey(folded.replace(/[,;]/g, ' ').replace(KIND_WORD, ' '))
}

/**
 * A query's trailing province ("xã đan phượng, hà nội", "bến nghé tp hcm"): the words before it and the
 * province as the boundaries name it after 1 July 2025; null when the query ends with none.
 */
export function splitProvince(folded: string): { rest: string; province: string } | null {
  const words = folded.replace(/[,;]/g, ' ').split(/\s+/).filter(Boolean)
  for (let n = Math.min(4, words.length - 1); n >= 1; n--) {
    const tail = words.slice(-n).join(' ')
    const p = resolveProvince(tail)
    if (p && provinceKey(tail).length >= 2) return { rest: words.slice(0, -n).join(' '), province: p.mergedInto }
  }
  return null
}

/**
 * Today's wards for a name from before 1 July 2025 (ward_history, migration 017): an old ward with or
 * without its district and province after it ("phường 12 gò vấp" → Phường An Hội Tây; "Bến Nghé" →
 * Phường Sài Gòn), every new ward an old one was split into, or an old district alone ("quận 3") → the
 * new wards that cover it. Each hit says both names: the new ward, and in `detail` the old one.
 * $1: the query's key; the old unit's key must be all of it or a whole-word start, and what follows
 * must begin the old district and province.
 */
export async function searchFormerNames(db: Queryable, folded: string, limit: number): Promise<SearchResult[]> {
  const key = formerQueryKey(folded)
  if (key.length < 1) return []
  const level = unitLevel(folded)
  const numeric = /^\d+$/.test(key.split(' ')[0] ?? '')
  // "12" alone is every Phường 12 in the country: a number needs its kind word or a district after it.
  if (numeric && level === null && !key.includes(' ')) return []
  const rest = (col: string) => `ltrim(substr($1, length(${col}) + 1))`
  const starts = (col: string) => `($1 = ${col} or $1 like ${col} || ' %')`
  const tail = (col: string, after: string) =>
    `(${rest(col)} = '' or ${after} like ${rest(col)} || '%' or h.old_province_key like ${rest(col)} || '%')`
  const byWard =
    level === 'district'
      ? 'false'
      : `(${starts('h.old_ward_key')} and ${tail('h.old_ward_key', "h.old_district_key || ' ' || h.old_province_key")})
         ${numeric ? '' : "or (length($1) >= 4 and h.old_ward_key like $1 || '%' and h.old_ward_key <> $1)"}`
  const byDistrict =
    level === 'ward'
      ? 'false'
      : `(${starts('h.old_district_key')} and ${tail('h.old_district_key', 'h.old_province_key')})`
  return db.query<SearchResult>(
    `with hits as (
       select h.dataset_id, h.new_ward, h.new_province,
         string_agg(distinct case when ${byWard} then h.old_ward || ', ' || h.old_district else h.old_district end, '; ') as old_names,
         bool_or(${byWard}) as by_ward
       from ward_history h where ${byWard} or ${byDistrict}
       group by h.dataset_id, h.new_ward, h.new_province)
     select 'ward' as kind, a.id::text as id, a.name as label,
       concat_ws(' · ', a.province, 'Trước 1/7/2025: ' || h.old_names) as detail,
       ST_Y(ST_PointOnSurface(a.geom))::float8 as lat, ST_X(ST_PointOnSurface(a.geom))::float8 as lng
     from hits h join admin_units a on a.dataset_id = h.dataset_id and a.level = 'ward' and (a.province, a.name) = (h.new_province, h.new_ward)
     order by h.by_ward desc, a.province, a.name limit $2`,
    [key, limit],
  )
}
