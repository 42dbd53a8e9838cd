-- Administrative areas (provinces, districts, wards) imported from files (--kind areas) into admin_units.
alter table datasets drop constraint datasets_kind_check;
alter table datasets add constraint datasets_kind_check check (kind in ('demo', 'parcels', 'planning', 'roads', 'prices', 'comparables', 'basemap', 'areas'));
