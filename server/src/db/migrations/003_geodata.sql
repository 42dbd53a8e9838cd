-- Geodata: everything the lookups, search and tiles read. All geometry is EPSG:4326; the CRS a
-- dataset came in is kept on the dataset (DOMAIN.md: store the CRS per dataset, never per province).

create table datasets (
  id text primary key,
  kind text not null check (kind in ('demo', 'parcels', 'planning', 'roads', 'prices', 'comparables')),
  name text not null,
  source text not null,
  data_date date not null,
  crs text not null,
  bounds geometry(Polygon, 4326),
  is_simulated boolean not null default false,
  imported_at timestamptz not null default now()
);

-- Bumped on every import; tile ETags and the server tile cache key on it.
create table data_version (id boolean primary key default true check (id), version bigint not null);
insert into data_version values (true, 1);

create table land_use_codes (
  code text primary key,
  name text not null,
  color text not null
);

create table admin_units (
  id bigserial primary key,
  dataset_id text not null references datasets(id) on delete cascade,
  level text not null check (level in ('province', 'district', 'ward')),
  name text not null,
  name_fold text generated always as (vn_fold(name)) stored,
  province text not null,
  district text not null default '',
  geom geometry(MultiPolygon, 4326) not null
);
create index admin_units_geom on admin_units using gist (geom);
create index admin_units_fold on admin_units using gin (name_fold gin_trgm_ops);

create table streets (
  id bigserial primary key,
  dataset_id text not null references datasets(id) on delete cascade,
  name text not null,
  name_fold text generated always as (vn_fold(name)) stored,
  class text not null check (class in ('main', 'street', 'alley')),
  width_m double precision not null,
  province text not null,
  ward text not null default '',
  geom geometry(LineString, 4326) not null
);
create index streets_geom on streets using gist (geom);
create index streets_fold on streets using gin (name_fold gin_trgm_ops);

create table parcels (
  id bigserial primary key,
  dataset_id text not null references datasets(id) on delete cascade,
  province text not null,
  district text not null default '',
  ward text not null,
  sheet_no integer not null,
  parcel_no integer not null,
  area_m2 double precision not null,
  address text not null default '',
  address_fold text generated always as (vn_fold(address)) stored,
  street_id bigint references streets(id) on delete set null,
  frontage_m double precision,
  alley_width_m double precision,
  distance_to_street_m double precision,
  geom geometry(MultiPolygon, 4326) not null
);
create index parcels_geom on parcels using gist (geom);
-- Tờ/thửa lookups give sheet and parcel numbers and only sometimes the ward.
create index parcels_sheet on parcels (sheet_no, parcel_no);
create index parcels_address_fold on parcels using gin (address_fold gin_trgm_ops);
-- Address search narrows by the house number first ("25/2 …"): a prefix range on this index.
create index parcels_address_prefix on parcels (address_fold text_pattern_ops);

create table parcel_land_use (
  parcel_id bigint not null references parcels(id) on delete cascade,
  code text not null,
  area_m2 double precision not null,
  primary key (parcel_id, code)
);

create table plans (
  id bigserial primary key,
  dataset_id text not null references datasets(id) on delete cascade,
  name text not null,
  level text not null check (level in ('QHPK 1/2000', 'QHCT 1/500')),
  decision_no text not null,
  approved_at date not null
);

create table planning_zones (
  id bigserial primary key,
  dataset_id text not null references datasets(id) on delete cascade,
  plan_id bigint not null references plans(id) on delete cascade,
  block_code text not null default '',
  land_use_code text not null,
  max_density_pct double precision,
  max_floors integer,
  max_far double precision,
  geom geometry(MultiPolygon, 4326) not null
);
create index planning_zones_geom on planning_zones using gist (geom);

create table road_reserves (
  id bigserial primary key,
  dataset_id text not null references datasets(id) on delete cascade,
  plan_id bigint references plans(id) on delete cascade,
  road_name text not null,
  width_m double precision not null,
  geom geometry(MultiPolygon, 4326) not null
);
create index road_reserves_geom on road_reserves using gist (geom);

-- Basemap features that are neither parcels nor streets: blocks, water, green, landmarks.
create table base_features (
  id bigserial primary key,
  dataset_id text not null references datasets(id) on delete cascade,
  kind text not null check (kind in ('block', 'water', 'green', 'landmark', 'ward_boundary')),
  name text not null default '',
  subkind text not null default '',
  geom geometry(Geometry, 4326) not null
);
create index base_features_geom on base_features using gist (geom);

create table price_rows (
  id bigserial primary key,
  dataset_id text not null references datasets(id) on delete cascade,
  province text not null,
  street_name text not null,
  street_fold text generated always as (vn_fold(street_name)) stored,
  segment_from text not null default '',
  segment_to text not null default '',
  street_id bigint references streets(id) on delete set null,
  year integer not null,
  vt1 bigint not null,
  vt2 bigint,
  vt3 bigint,
  vt4 bigint,
  source text not null
);
create index price_rows_street on price_rows (street_id);
create index price_rows_fold on price_rows (province, street_fold);

-- How a province turns frontage / alley width / distance into VT1–VT4: data, not code branches.
create table price_position_rules (
  province text primary key,
  rule jsonb not null
);

create table comparables (
  id bigserial primary key,
  dataset_id text not null references datasets(id) on delete cascade,
  geom geometry(Point, 4326) not null,
  observed_at date not null,
  price_vnd bigint not null,
  area_m2 double precision not null,
  frontage_m double precision,
  alley_width_m double precision,
  floors integer,
  kind text not null default 'nha_pho'
);
create index comparables_geom on comparables using gist (geom);
create index comparables_date on comparables (observed_at);

insert into land_use_codes (code, name, color) values
  ('ODT', 'Đất ở tại đô thị', '#ffa0ff'),
  ('ONT', 'Đất ở tại nông thôn', '#ffd0ff'),
  ('TMD', 'Đất thương mại, dịch vụ', '#faaaa0'),
  ('SKC', 'Đất cơ sở sản xuất phi nông nghiệp', '#faaaa0'),
  ('DGT', 'Đất giao thông', '#ffaa32'),
  ('SON', 'Đất sông, ngòi, kênh, rạch, suối', '#a0ffff'),
  ('NTD', 'Đất nghĩa trang, nghĩa địa', '#d2d2d2'),
  ('LUC', 'Đất chuyên trồng lúa nước', '#ffff64'),
  ('LUK', 'Đất trồng lúa nước còn lại', '#ffff96'),
  ('LUN', 'Đất lúa nương', '#ffffb4'),
  ('HNK', 'Đất trồng cây hằng năm khác', '#ffe6a0'),
  ('CLN', 'Đất trồng cây lâu năm', '#ffd2a0'),
  ('RSX', 'Đất rừng sản xuất', '#b4ffb4'),
  ('NTS', 'Đất nuôi trồng thuỷ sản', '#aaffff'),
  ('DVH', 'Đất xây dựng cơ sở văn hoá', '#ffaaa0'),
  ('DYT', 'Đất xây dựng cơ sở y tế', '#ffaaa0'),
  ('DGD', 'Đất xây dựng cơ sở giáo dục và đào tạo', '#ffaaa0'),
  ('DKV', 'Đất khu vui chơi, giải trí công cộng, cây xanh', '#aaff80'),
  ('CSD', 'Đất chưa sử dụng', '#ffffff');

insert into price_position_rules (province, rule) values
  ('Thành phố Hồ Chí Minh', '{"kind":"ratio","vt2":0.5,"vt3":0.8,"vt4":0.8,"alley_vt2_min_m":5,"alley_vt3_min_m":3,"deep_m":100,"deep_reduction":0.1}'),
  ('Thành phố Hà Nội', '{"kind":"width","vt2_min_m":3.5,"vt3_min_m":2,"distance_step_m":100,"distance_reduction":0.1,"max_reduction":0.3}');
