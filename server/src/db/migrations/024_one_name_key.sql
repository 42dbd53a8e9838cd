-- One rule for a name's key: the folded name without one leading kind word. Migration 017 kept it for the
-- search (vn_name_key: "duong", "hem", "phuong", "xa", "thanh pho", "tinh") and migration 019 a second one
-- for price tables (street_key: "duong", "pho"), so "Phố Huế" was "hue" to a price table and "pho hue" to
-- the search. One list serves both: a price table's street and a map's street are keyed by the same
-- function, so a word it drops on one side it drops on the other ("ĐƯỜNG SỐ 7" ↔ "Số 7", "Phố Huế" ↔
-- "Huế"), and the search ignores "Phố" in front of a Hà Nội street as it ignores "Đường" (typing "hue"
-- finds "Phố Huế" by prefix). Words that only name admin units ("phuong", "xa") do not begin a street's
-- name in a price table, so dropping them there changes no match. core/text/test-fold-cases.ts states the same
-- rule for the tests, and server/src/search/vn-fold.test.ts holds the database to it.
--
-- The function takes a folded name (vn_fold): the search keys a folded address it already has. Its body
-- calls nothing outside pg_catalog, so a restore (pg_restore, empty search_path) computes the generated
-- columns below; the columns name public.vn_fold themselves for the same reason.

alter table streets drop column name_key;
alter table admin_units drop column name_key;
alter table parcel_places drop column name_key;
alter table street_names drop column name_key;
alter table price_rows drop column street_key;
alter table price_coefficients drop column street_key;
drop function vn_name_key(text);
drop function street_key(text);

create function vn_name_key(folded text) returns text
  language sql immutable parallel safe strict
  as $$ select regexp_replace(folded, '^(duong|pho|hem|phuong|xa|thanh pho|tinh) ', '') $$;

alter table streets add column name_key text generated always as (public.vn_name_key(public.vn_fold(name))) stored;
create index streets_key_prefix on streets (name_key text_pattern_ops);
alter table admin_units add column name_key text generated always as (public.vn_name_key(public.vn_fold(name))) stored;
create index admin_units_key_prefix on admin_units (name_key text_pattern_ops);
alter table parcel_places add column name_key text generated always as (public.vn_name_key(public.vn_fold(name))) stored;
alter table street_names add column name_key text generated always as (public.vn_name_key(public.vn_fold(name))) stored;
create index street_names_key_prefix on street_names (name_key text_pattern_ops);
alter table price_rows add column street_key text generated always as (public.vn_name_key(public.vn_fold(street_name))) stored;
create index price_rows_key on price_rows (province, street_key);
alter table price_coefficients add column street_key text generated always as (public.vn_name_key(public.vn_fold(street))) stored;

/*
 * price_row_at as migration 019 wrote it (read the comment there), with the street's key read from the
 * streets' stored name_key: the street fronted is the nearest whose key a row of the province lists, its
 * stretches and the crossings are the streets of that key, where 019 spelled out "", "duong ", "pho "
 * in front of it once more.
 */
create or replace function price_row_at(place geometry, street bigint, province_name text, district_name text, as_of date)
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

  select s.name_key into k from streets s
  where s.geom && ST_Expand(place, 0.005) and ST_DWithin(s.geom::geography, place::geography, 500)
    and exists (select 1 from price_rows pr where pr.province = province_name and pr.street_key = s.name_key)
  order by (s.id = street) is true desc, ST_Distance(s.geom::geography, place::geography), s.id
  limit 1;
  if k is null then
    return;
  end if;

  select coalesce(max(e) filter (where e <= as_of), min(e)) into eff
  from (select coalesce(pr.effective_from, make_date(pr.year, 1, 1)) as e from price_rows pr
        where pr.province = province_name and pr.street_key = k) t;

  select ST_LineMerge(ST_Collect(s.geom)) into fronted from streets s
  where s.geom && ST_Expand(place, 0.05) and s.name_key = k;
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
      where x.geom && ST_Expand(p, 0.05) and x.name_key = n.key and n.key <> k
        and ST_DWithin(x.geom::geography, axis::geography, 30)
      order by ST_DWithin(x.geom::geography, fronted::geography, 30) desc, ST_Distance(x.geom, p), x.id limit 1) as at
    from (select name, vn_name_key(vn_fold(name)) as key from (select segment_from as name from cand where not whole and segment_from <> ''
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
