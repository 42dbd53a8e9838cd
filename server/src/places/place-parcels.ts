import type { FormerUnit } from '#core/contract/lookups.ts'
import { resolveProvince } from '#core/geo/provinces.ts'
import type { Queryable } from '../db/database.ts'
import { ImportError } from '../import/errors.ts'
import { REORGANISED_ON } from './boundaries.ts'
import { NEAR_DEG } from './places-at.ts'

/** A province name as imports store it (core/geo/provinces.ts): "Tỉnh Bình Dương" → "Bình Dương". */
const stored = (name: string) => resolveProvince(name)?.name ?? name

/**
 * The province of parcels an import wrote without one (the file has no province column and no
 * --province was given), from where they lie: the old province today's ward there was made of, when
 * its former units were all of one (Bình Dương for Phường Thủ Dầu Một, now in TP. Hồ Chí Minh), so the
 * VN-2000 meridian answers use stays that old province's (DOMAIN.md); otherwise today's province. Run in
 * the import's transaction once the rows are in; a parcel outside every ward stops the import with one
 * line, as the file is then surely not where its coordinates were read to be.
 */
export async function placeParcels(tx: Queryable, datasetId: string): Promise<void> {
  const groups = await tx.query<{ ids: string[]; province: string | null; before_2025: FormerUnit[] | null }>(
    `select array_agg(p.id::text) as ids, u.province, u.before_2025
     from parcels p
     cross join lateral (select ST_PointOnSurface(p.geom) as pt) q
     left join lateral (
       select a.province, a.before_2025 from admin_units a join datasets d on d.id = a.dataset_id
       where a.level = 'ward' and a.before_2025 is not null and d.kind = 'areas' and d.data_date >= date '${REORGANISED_ON}'
         and a.geom && ST_Expand(q.pt, ${NEAR_DEG}) and ST_DWithin(a.geom, q.pt, ${NEAR_DEG})
       order by ST_Covers(a.geom, q.pt) desc, d.data_date desc, ST_Distance(a.geom, q.pt), a.id limit 1) u on true
     where p.dataset_id = $1 and p.province = ''
     group by u.province, u.before_2025`,
    [datasetId],
  )
  const outside = groups.find((g) => g.province === null)
  if (outside) {
    // An import into a database no server has started on yet (which loads the shipped boundaries)
    // has nothing to place by: saying the parcels lie outside Việt Nam would send the user to the CRS.
    const anyWard = await tx.query(
      `select 1 from admin_units a join datasets d on d.id = a.dataset_id
       where a.level = 'ward' and a.before_2025 is not null and d.kind = 'areas' and d.data_date >= date '${REORGANISED_ON}' limit 1`,
    )
    if (anyWard.length === 0)
      throw new ImportError(
        `${outside.ids.length} thửa không có tỉnh/thành phố, và cơ sở dữ liệu chưa có ranh giới hành chính để tìm tỉnh theo vị trí (máy chủ nạp ranh giới khi chạy npm start lần đầu); ghi tỉnh bằng cột tinh_tp hay --province "<tỉnh/thành phố>"`,
      )
    throw new ImportError(
      `${outside.ids.length} thửa không có tỉnh/thành phố và nằm ngoài ranh giới hành chính Việt Nam; kiểm tra hệ tọa độ, hoặc ghi tỉnh bằng cột tinh_tp hay --province "<tỉnh/thành phố>"`,
    )
  }
  for (const g of groups) {
    const old = new Set((g.before_2025 ?? []).map((u) => stored(u.province)).filter(Boolean))
    const province = old.size === 1 ? [...old][0]! : stored(g.province!)
    await tx.query('update parcels set province = $2 where id = any($1::bigint[])', [g.ids, province])
  }
}
