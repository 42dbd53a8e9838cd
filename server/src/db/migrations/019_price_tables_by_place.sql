-- State price tables as provinces publish them, and the one rule that picks a parcel's row.
--
-- A table (Decision 79/2024/QĐ-UBND of TP.HCM; from 2026 one a year, Land Law 2024 art. 159) lists a
-- street once per district sheet and once per segment between two named crossings. Each row keeps the
-- district of its sheet, the decision it was published by and the date it takes effect, so a valuation
-- uses the table in force on its date and the segment the parcel lies on, never the row imported first.
alter table price_rows add column district text not null default '';
alter table price_rows add column decision_no text not null default '';
alter table price_rows add column decision_date date;
-- When the table takes effect (the import's --date); older rows: 1 January of their year.
alter table price_rows add column effective_from date;
update price_rows set effective_from = make_date(year, 1, 1);
-- Where the row stands in the published table: the order segments are listed in, for a stable choice.
alter table price_rows add column sheet text not null default '';
alter table price_rows add column row_no integer;

-- A street's name as tables and maps both write it: folded, without a leading "đường" or "phố"
-- ("ĐƯỜNG SỐ 7" in a table, "Đường số 7" or "Số 7" on a map). vn_fold is named with its schema: a restore
-- (pg_restore) computes the generated columns below with an empty search_path.
create function street_key(name text) returns text language sql immutable parallel safe
  as $$ select regexp_replace(public.vn_fold(name), '^(duong|pho) ', '') $$;
alter table price_rows add column street_key text generated always as (street_key(street_name)) stored;
create index price_rows_key on price_rows (province, street_key);

-- Land-price adjustment coefficients (hệ số điều chỉnh giá đất, K): table price × K, by province and year,
-- for an area (a district or ward as the decision names it; '' = the whole province) and optionally a street.
create table price_coefficients (
  id bigserial primary key,
  dataset_id text not null references datasets(id) on delete cascade,
  province text not null,
  year integer not null,
  area text not null default '',
  area_fold text generated always as (vn_fold(area)) stored,
  street text not null default '',
  street_key text generated always as (street_key(street)) stored,
  k double precision not null check (k > 0 and k <= 20),
  source text not null
);
create index price_coefficients_province on price_coefficients (province, year);

alter table datasets drop constraint datasets_kind_check;
alter table datasets add constraint datasets_kind_check check (kind in ('demo', 'parcels', 'planning', 'roads', 'prices', 'comparables', 'basemap', 'areas', 'price-coefficients'));

/*
 * The price row for a place (a parcel's outline, or a sale's point), of the table in force on `as_of`
 * (the newest that took effect by then; the oldest when none had, as for a sale older than every table):
 *
 * 1. Rows tied to the parcel's street by id (the demo's table) are that street's rows.
 * 2. Otherwise the street the place fronts is the nearest street within 500 m whose name the province's
 *    table lists, and on it the segment is found by position. Positions are measured along the street's
 *    axis (its longest stretch near the place, end to end, in a local plane). Each row's "from" and "to"
 *    crossings are looked up by name among the streets held: where that street comes within 30 m of the
 *    fronted street (within 5 km), or, when the data stops short of the junction (an extract cut at its edge), of the
 *    street's axis carried on up to 600 m. A row whose span holds the place's nearest point on the
 *    street wins; then rows not ruled out (a crossing unknown), rows of the place's own district, the
 *    nearest span, and the table's own order.
 *
 * `how`: 'linked', 'only' (the street has one row), 'whole' (the row covers the whole street), 'span'
 * (between two known crossings) or 'nearest' (no span holds it); `unknown`: crossings named by the
 * street's rows that no street held, for the answer's note. Read by the valuation and by every sale's
 * location term (server/src/valuation/price-row.ts), so both price a place the same way.
 */
create function price_row_at(place geometry, street bigint, province_name text, district_name text, as_of date)
returns table (row_id bigint, how text, unknown text[]) language plpgsql stable as $$
declare
  k text;
  fronted geometry;
  axis geometry;
  p geometry;
  eff date;
  cosl double precision;
  x1 double precision;
  y1 double precision;
  ux double precision;
  uy double precision;
  len double precision;
begin
  if street is not null then
    return query
      select pr.id, 'linked'::text, '{}'::text[] from price_rows pr where pr.street_id = street
      order by coalesce(pr.effective_from, make_date(pr.year, 1, 1)) > as_of, abs(coalesce(pr.effective_from, make_date(pr.year, 1, 1)) - as_of), pr.id
      limit 1;
    if found then
      return;
    end if;
  end if;

  select street_key(s.name) into k from streets s
  where s.geom && ST_Expand(place, 0.005) and ST_DWithin(s.geom::geography, place::geography, 500)
    and exists (select 1 from price_rows pr where pr.province = province_name and pr.street_key = street_key(s.name))
  order by (s.id = street) is true desc, ST_Distance(s.geom::geography, place::geography), s.id
  limit 1;
  if k is null then
    return;
  end if;

  select coalesce(max(e) filter (where e <= as_of), min(e)) into eff
  from (select coalesce(pr.effective_from, make_date(pr.year, 1, 1)) as e from price_rows pr
        where pr.province = province_name and pr.street_key = k) t;

  select ST_LineMerge(ST_Collect(s.geom)) into fronted from streets s
  where s.geom && ST_Expand(place, 0.05) and s.name_fold = any(array[k, 'duong ' || k, 'pho ' || k]);
  p := ST_ClosestPoint(fronted, ST_PointOnSurface(place));
  cosl := cos(radians(ST_Y(p)));
  -- The axis: the longest merged stretch, start to end, as a unit vector in a plane where a degree of
  -- longitude is shrunk by cos(latitude); positions along it are in metres (111,320 m a degree).
  select d.geom into axis from ST_Dump(fronted) d order by ST_Length(d.geom) desc limit 1;
  x1 := ST_X(ST_StartPoint(axis)) * cosl;
  y1 := ST_Y(ST_StartPoint(axis));
  ux := ST_X(ST_EndPoint(axis)) * cosl - x1;
  uy := ST_Y(ST_EndPoint(axis)) - y1;
  len := sqrt(ux * ux + uy * uy);
  if len = 0 then
    ux := 1;
    uy := 0;
  else
    ux := ux / len;
    uy := uy / len;
  end if;
  -- The axis carried on 600 m (0.0054°) past both ends, for junctions beyond the data's edge.
  axis := ST_MakeLine(
    ST_SetSRID(ST_MakePoint((x1 - 0.0054 * ux) / cosl, y1 - 0.0054 * uy), 4326),
    ST_SetSRID(ST_MakePoint((x1 + (len + 0.0054) * ux) / cosl, y1 + (len + 0.0054) * uy), 4326));

  return query
  with cand as (
    select pr.id, pr.segment_from, pr.segment_to, pr.district, pr.sheet, pr.row_no,
      vn_fold(pr.segment_from) in ('', 'tron duong', 'ca tuyen', 'toan tuyen', 'suot tuyen') and pr.segment_to = '' as whole
    from price_rows pr
    where pr.province = province_name and pr.street_key = k and coalesce(pr.effective_from, make_date(pr.year, 1, 1)) = eff
  ),
  -- Where each named crossing meets the street: a point on the street, or on its axis past the data.
  crossings as (
    select n.name, (
      select coalesce(
        case when ST_DWithin(x.geom::geography, fronted::geography, 30) then ST_ClosestPoint(fronted, x.geom) end,
        case when ST_DWithin(x.geom::geography, axis::geography, 30) then ST_ClosestPoint(axis, x.geom) end)
      from streets x
      where x.geom && ST_Expand(p, 0.05) and x.name_fold = any(array[n.key, 'duong ' || n.key, 'pho ' || n.key]) and n.key <> k
        and ST_DWithin(x.geom::geography, axis::geography, 30)
      order by ST_DWithin(x.geom::geography, fronted::geography, 30) desc, ST_Distance(x.geom, p), x.id limit 1) as at
    from (select name, street_key(name) as key from (select segment_from as name from cand where not whole and segment_from <> ''
          union select segment_to from cand where not whole and segment_to <> '') u) n
  ),
  placed as (
    select c.*,
      ((ST_X(a.at) * cosl - x1) * ux + (ST_Y(a.at) - y1) * uy) * 111320 as ta,
      ((ST_X(b.at) * cosl - x1) * ux + (ST_Y(b.at) - y1) * uy) * 111320 as tb,
      ((ST_X(p) * cosl - x1) * ux + (ST_Y(p) - y1) * uy) * 111320 as tp
    from cand c
    left join crossings a on a.name = c.segment_from
    left join crossings b on b.name = c.segment_to
  ),
  ranked as (
    select pl.*,
      pl.whole or (pl.ta is not null and pl.tb is not null and pl.tp between least(pl.ta, pl.tb) - 5 and greatest(pl.ta, pl.tb) + 5) as holds,
      pl.ta is not null and pl.tb is not null and not (pl.tp between least(pl.ta, pl.tb) - 5 and greatest(pl.ta, pl.tb) + 5) as ruled_out,
      case when pl.whole then 0 else least(abs(pl.tp - pl.ta), abs(pl.tp - pl.tb)) end as gap
    from placed pl
  )
  select r.id,
    case when (select count(*) from cand) = 1 then 'only' when r.whole then 'whole' when r.holds then 'span' else 'nearest' end,
    coalesce((select array_agg(c.name order by c.name) from crossings c where c.at is null), '{}')
  from ranked r
  order by r.holds desc, r.ruled_out asc, (vn_fold(r.district) = vn_fold(coalesce(district_name, ''))) desc,
    r.gap nulls last, r.sheet, r.row_no nulls last, r.id
  limit 1;
end $$;

-- The residual method's (thặng dư) costs: the build cost per m² of floor and the developer's margin, by
-- province ('' = anywhere), importable (--kind residual-costs); the row without a dataset is the built-in
-- default, an assumption docs/domain.md states, used until a province's own figures are imported.
create table residual_costs (
  id bigserial primary key,
  dataset_id text references datasets(id) on delete cascade,
  province text not null default '',
  build_cost_vnd_per_m2 bigint not null check (build_cost_vnd_per_m2 > 0),
  developer_margin double precision not null check (developer_margin >= 0 and developer_margin < 1),
  source text not null
);
insert into residual_costs (province, build_cost_vnd_per_m2, developer_margin, source) values
  ('', 7500000, 0.15, 'Giả định mặc định của ứng dụng: chi phí xây dựng nhà ở riêng lẻ 7,5 triệu đ/m² sàn, lợi nhuận nhà đầu tư 15 % (docs/domain.md)');

alter table datasets drop constraint datasets_kind_check;
alter table datasets add constraint datasets_kind_check check (kind in ('demo', 'parcels', 'planning', 'roads', 'prices', 'comparables', 'basemap', 'areas', 'price-coefficients', 'residual-costs'));
