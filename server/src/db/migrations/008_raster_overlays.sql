-- Raster planning overlays: georeferenced scans of published plans, reprojected once to Web Mercator
-- and kept as a tile pyramid in the database, so every server process on the same database serves them.

create table raster_overlays (
  id text primary key,
  name text not null,
  plan_level text not null,
  decision_no text not null,
  approved_at date not null,
  source text not null,
  -- How the scan was placed: 'geotiff', 'world-file' or 'gcp', and in which CRS.
  georef text not null,
  crs text not null,
  minzoom smallint not null,
  maxzoom smallint not null,
  -- The sheet's outline on the ground (a rotated scan is not a rectangle) and its bounding box.
  footprint geometry(Polygon, 4326) not null,
  bounds geometry(Polygon, 4326) not null,
  -- Changes with every import of this id; part of each tile's ETag.
  revision text not null,
  tile_count integer not null,
  bytes bigint not null,
  imported_at timestamptz not null default now()
);
create index raster_overlays_footprint on raster_overlays using gist (footprint);

-- Only tiles holding part of the sheet are stored; a tile inside the bounds without a row is transparent.
create table raster_overlay_tiles (
  overlay_id text not null references raster_overlays(id) on delete cascade,
  z smallint not null,
  x integer not null,
  y integer not null,
  png bytea not null,
  primary key (overlay_id, z, x, y)
);
