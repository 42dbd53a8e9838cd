-- Streets and wards named by imported parcels, for the search. A cadastre usually comes without a
-- street network, yet a parcel at "12 Nguyễn Lương Bằng" should make "Nguyen Luong Bang" and its ward
-- findable at once. The parcel import fills this in its own transaction (fill_parcel_places), and the
-- rows go with their dataset. The search reads them like streets and admin_units, and leaves out a
-- name those tables already hold in the same province.
create table parcel_places (
  id bigserial primary key,
  dataset_id text not null references datasets(id) on delete cascade,
  kind text not null check (kind in ('street', 'ward')),
  name text not null,
  name_fold text generated always as (vn_fold(name)) stored,
  name_key text generated always as (regexp_replace(vn_fold(name), '^(duong|hem|phuong|xa|thanh pho|tinh) ', '')) stored,
  -- For a street, the ward its parcels are in; empty for a ward.
  ward text not null default '',
  district text not null default '',
  province text not null,
  parcels integer not null,
  geom geometry(Point, 4326) not null
);
create index parcel_places_fold on parcel_places using gin (name_fold gin_trgm_ops);
create index parcel_places_dataset on parcel_places (dataset_id);

-- The street of an address is what follows the house number ("12", "25/2", "Số 7") up to the first
-- comma; the point is the parcel nearest the middle of them all, as the search does for streets.
create function fill_parcel_places(ds text) returns void language sql as $$
  insert into parcel_places (dataset_id, kind, name, ward, district, province, parcels, geom)
  select ds, 'street', street, ward, district, province, count(*)::int, ST_ClosestPoint(ST_Collect(pt), ST_Centroid(ST_Collect(pt)))
  from (
    select btrim(regexp_replace(split_part(address, ',', 1), '^\s*(số\s+)?[0-9][^\s]*\s+', '', 'i')) as street,
      ward, district, province, ST_PointOnSurface(geom) as pt
    from parcels where dataset_id = ds and address <> ''
  ) a
  where street ~ '[[:alpha:]]{2}' and street !~ '^[0-9]'
  group by street, ward, district, province;
  insert into parcel_places (dataset_id, kind, name, district, province, parcels, geom)
  select ds, 'ward', ward, district, province, count(*)::int, ST_ClosestPoint(ST_Collect(pt), ST_Centroid(ST_Collect(pt)))
  from (select ward, district, province, ST_PointOnSurface(geom) as pt from parcels where dataset_id = ds and ward <> '') w
  group by ward, district, province;
$$;

-- Parcel datasets imported before this migration become searchable too.
select fill_parcel_places(id) from datasets where kind = 'parcels';
