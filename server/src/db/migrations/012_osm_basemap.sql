-- An OpenStreetMap extract feeds the basemap (npm run import -- <extract>.osm.pbf --kind basemap): its
-- dataset kind, and base features for roads (kept out of `streets`, which search and the price table
-- match against), land use and place names beside the blocks, water, green and landmarks the demo has.
alter table datasets drop constraint datasets_kind_check;
alter table datasets add constraint datasets_kind_check check (kind in ('demo', 'parcels', 'planning', 'roads', 'prices', 'comparables', 'basemap'));
alter table base_features drop constraint base_features_kind_check;
alter table base_features add constraint base_features_kind_check
  check (kind in ('block', 'water', 'green', 'landmark', 'ward_boundary', 'road', 'landuse', 'place'));
