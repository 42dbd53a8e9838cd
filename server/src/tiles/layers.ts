import type { TileLayerId } from '#core/contract/tiles.ts'
import { PLAN_LEVELS, planLevelRankSql } from '#core/planning/plan-levels.ts'
import { REORGANISED_ON } from '../places/boundaries.ts'

/**
 * One layer inside a tile. `select` is a lateral subquery over the row `b` (columns z, the zoom, and q,
 * the box of the tiles asked for with their buffer, in EPSG:4326 for the GiST index) returning fid,
 * props (json), geom (4326), sort. It must not depend on which tile of the box a row lands in: the
 * rows of one box are cut into all of its tiles. In a `labelled` layer of polygons each piece gets
 * the property label, true in the one tile holding the polygon's interior point (geometry.ts).
 */
export type SourceLayer = {
  name: string
  minzoom: number
  description: string
  fields: Record<string, string>
  select: string
  labelled?: true
}

export type TileSet = {
  id: TileLayerId
  name: string
  description: string
  minzoom: number
  maxzoom: number
  /** datasets.kind values whose rows this set draws: they give its bounds, attribution and date. */
  datasetKinds: string[]
  /**
   * From this zoom on, every zoom selects the same rows: every layer is active and no select tests
   * b.z any more. Tiles of deeper zooms are then cut from the rows read for this one (render.ts,
   * rowZoom), so it must move with any minzoom or zoom condition of the layers below.
   */
  allRowsFrom: number
  layers: SourceLayer[]
}

const baseFeature = (kind: string, geom = 'f.geom') => `
  select f.id as fid, json_build_object('name', f.name, 'kind', f.subkind) as props, ${geom} as geom, 0 as sort
  from base_features f where f.kind = '${kind}' and f.geom && b.q`

/** Streets and OSM roads share one layer; OSM rows' feature ids start here so the two never collide. */
const OSM_ID_OFFSET = 2 ** 40

/**
 * Today's administrative units (areas datasets dated from 1 July 2025: the shipped boundaries or a newer
 * set): provinces from z6, wards from z10, a ward left out where basemap data of its own is drawn (the
 * demo's simulated wards, an imported extract), so the basemap is never empty and never contradicts it.
 */
const adminUnits = (geom: string) => `
  select a.id as fid, json_build_object('name', a.name, 'level', a.level) as props, ${geom} as geom,
    case a.level when 'province' then 1 else 0 end as sort
  from admin_units a join datasets d on d.id = a.dataset_id
  where a.geom && b.q and d.kind = 'areas' and d.data_date >= date '${REORGANISED_ON}'
    and (a.level = 'province' or (a.level = 'ward' and b.z >= 10 and not exists (
      select 1 from datasets o where o.kind in ('demo', 'roads', 'basemap') and o.bounds && a.geom and ST_Intersects(o.bounds, a.geom))))`

const basemap: TileSet = {
  id: 'basemap',
  name: 'Bản đồ nền',
  description:
    'Đường phố, khối nhà, sông nước, cây xanh, sử dụng đất, địa danh, địa điểm, ranh giới phường và ranh giới hành chính 2025.',
  minzoom: 6,
  maxzoom: 18,
  datasetKinds: ['demo', 'roads', 'basemap', 'areas'],
  // blocks, landmarks and every street from z14; every place from z14.
  allRowsFrom: 14,
  // Bottom to top, the order a client draws them in when it keeps the tile's order.
  layers: [
    {
      name: 'water',
      minzoom: 10,
      description: 'Sông, kênh, hồ',
      fields: { name: 'Tên', kind: 'Loại' },
      select: baseFeature('water'),
    },
    {
      name: 'landuse',
      minzoom: 12,
      description: 'Sử dụng đất theo OpenStreetMap (khu dân cư, công nghiệp, …)',
      fields: { name: 'Tên', kind: 'Loại' },
      select: baseFeature('landuse'),
    },
    {
      name: 'green',
      minzoom: 12,
      description: 'Công viên, cây xanh',
      fields: { name: 'Tên', kind: 'Loại' },
      select: baseFeature('green'),
    },
    {
      name: 'blocks',
      minzoom: 14,
      description: 'Khối nhà',
      fields: { name: 'Tên', kind: 'Loại' },
      select: baseFeature('block'),
    },
    {
      name: 'streets',
      minzoom: 12,
      description: 'Đường phố; dưới z14 chỉ đường chính',
      fields: { name: 'Tên đường', class: 'main | street | alley', width: 'Bề rộng (m)' },
      select: `
        select s.id as fid, json_build_object('name', s.name, 'class', s.class, 'width', s.width_m) as props, s.geom,
          case s.class when 'main' then 2 when 'street' then 1 else 0 end as sort
        from streets s where s.geom && b.q and (b.z >= 14 or s.class = 'main')
        union all
        -- Roads of an OpenStreetMap extract: ids shifted past the streets table's, widths typical of each class.
        select ${OSM_ID_OFFSET} + f.id as fid,
          json_build_object('name', f.name, 'class', f.subkind, 'width', case f.subkind when 'main' then 20 when 'street' then 10 else 4 end) as props, f.geom,
          case f.subkind when 'main' then 2 when 'street' then 1 else 0 end as sort
        from base_features f where f.kind = 'road' and f.geom && b.q and (b.z >= 14 or f.subkind = 'main')`,
    },
    {
      name: 'ward_boundary',
      minzoom: 10,
      description: 'Ranh giới phường (đường)',
      fields: { name: 'Tên phường', kind: 'Loại' },
      // As lines, so a client strokes the boundary without drawing the tile's clip edges.
      select: baseFeature(
        'ward_boundary',
        'case when ST_Dimension(f.geom) = 2 then ST_Boundary(f.geom) else f.geom end',
      ),
    },
    {
      name: 'admin_boundaries',
      minzoom: 6,
      description: 'Ranh giới tỉnh, thành phố (từ z6) và phường, xã, đặc khu (từ z10) sau 1/7/2025 (đường)',
      fields: { name: 'Tên đơn vị', level: 'province | ward' },
      select: adminUnits('ST_Boundary(a.geom)'),
    },
    {
      name: 'admin_labels',
      minzoom: 6,
      description: 'Tên tỉnh, thành phố và phường, xã, đặc khu sau 1/7/2025 — điểm đặt nhãn',
      fields: { name: 'Tên đơn vị', level: 'province | ward' },
      select: adminUnits('ST_PointOnSurface(a.geom)'),
    },
    {
      name: 'landmarks',
      minzoom: 14,
      description: 'Địa điểm (chợ, trường, …) — điểm đặt nhãn',
      fields: { name: 'Tên', kind: 'Loại' },
      select: baseFeature('landmark', 'ST_PointOnSurface(f.geom)'),
    },
    {
      name: 'places',
      minzoom: 10,
      description:
        'Địa danh (thành phố, thị trấn, phường, làng, đảo) — điểm đặt nhãn; nơi nhỏ hiện ở mức phóng lớn hơn',
      fields: {
        name: 'Tên',
        kind: 'city | town | suburb | quarter | village | neighbourhood | hamlet | island | islet | archipelago',
      },
      select: `
        select f.id as fid, json_build_object('name', f.name, 'kind', f.subkind) as props, ST_PointOnSurface(f.geom) as geom,
          case f.subkind when 'city' then 3 when 'town' then 2 when 'suburb' then 1 else 0 end as sort
        from base_features f where f.kind = 'place' and f.geom && b.q
          and b.z >= case when f.subkind in ('city', 'town', 'archipelago', 'island') then 10 when f.subkind in ('suburb', 'village', 'islet') then 12 else 14 end`,
    },
  ],
}

const planning: TileSet = {
  id: 'planning',
  name: 'Quy hoạch',
  description: 'Ô quy hoạch theo chức năng sử dụng đất và lộ giới.',
  minzoom: 12,
  maxzoom: 18,
  datasetKinds: ['demo', 'planning'],
  // road_reserves from z14.
  allRowsFrom: 14,
  layers: [
    {
      name: 'zones',
      minzoom: 12,
      description:
        'Ô quy hoạch; QHCT 1/500 nằm trên QHPK 1/2000, QHPK nằm trên QHC; trong một cấp, đồ án mới nằm trên đồ án cũ',
      fields: {
        land_use_code: 'Mã chức năng sử dụng đất',
        color: 'Màu (#rrggbb)',
        block_code: 'Ký hiệu ô',
        max_floors: 'Tầng cao tối đa',
        max_density_pct: 'Mật độ xây dựng tối đa (%)',
        max_far: 'Hệ số sử dụng đất tối đa',
        plan_level: 'Cấp quy hoạch',
        approved_at: 'Ngày phê duyệt đồ án (YYYY-MM-DD)',
        decision_no: 'Số quyết định phê duyệt',
        label: 'true trong đúng một ô bản đồ: ô chứa điểm đặt nhãn của ô quy hoạch',
      },
      // As parcels: a zone's codes are written once, on the piece in the tile holding its interior point.
      labelled: true,
      select: `
        select z.id as fid,
          json_build_object('land_use_code', z.land_use_code, 'color', coalesce(c.color, '#cccccc'), 'block_code', z.block_code,
            'max_floors', z.max_floors, 'max_density_pct', z.max_density_pct, 'max_far', z.max_far, 'plan_level', p.level,
            'approved_at', p.approved_at::text, 'decision_no', p.decision_no) as props,
          -- Drawn bottom to top: the more detailed level over the broader one, and within a level the newer
          -- approval over the older it replaces (days since 1970 stay below the level's step of 100,000).
          z.geom, (${PLAN_LEVELS.length} - ${planLevelRankSql('p.level')}) * 100000 + (p.approved_at - date '1970-01-01') as sort
        from planning_zones z join plans p on p.id = z.plan_id left join land_use_codes c on c.code = z.land_use_code
        where z.geom && b.q`,
    },
    {
      name: 'road_reserves',
      minzoom: 14,
      description: 'Lộ giới (chỉ giới đường đỏ)',
      fields: { road_name: 'Tên đường', width_m: 'Lộ giới (m)' },
      select: `
        select r.id as fid, json_build_object('road_name', r.road_name, 'width_m', r.width_m) as props, r.geom, 0 as sort
        from road_reserves r where r.geom && b.q`,
    },
  ],
}

const parcels: TileSet = {
  id: 'parcels',
  name: 'Thửa đất',
  description: 'Ranh thửa với số tờ, số thửa và mục đích sử dụng chính, từ z16.',
  minzoom: 16,
  maxzoom: 20,
  datasetKinds: ['demo', 'parcels'],
  allRowsFrom: 16,
  layers: [
    {
      name: 'parcels',
      minzoom: 16,
      description: 'Thửa đất',
      fields: {
        id: 'Mã thửa (như trong API)',
        sheet_no: 'Số tờ',
        parcel_no: 'Số thửa',
        land_use: 'Mã mục đích sử dụng chính (diện tích lớn nhất)',
        label: 'true trong đúng một ô bản đồ: ô chứa điểm đặt nhãn của thửa',
      },
      // A parcel across tile edges comes as one piece per tile: only the tile holding the parcel's
      // interior point says "label", so its number is drawn once, not once per piece.
      labelled: true,
      select: `
        select p.id as fid,
          json_build_object('id', p.id::text, 'sheet_no', p.sheet_no, 'parcel_no', p.parcel_no,
            'land_use', (select u.code from parcel_land_use u where u.parcel_id = p.id order by u.area_m2 desc, u.code limit 1)) as props,
          p.geom, 0 as sort
        from parcels p where p.geom && b.q`,
    },
  ],
}

export const tileSets: Record<TileLayerId, TileSet> = { basemap, planning, parcels }
