-- Tiles rendered ahead of time (server/src/tiles/store.ts): after an import, and after the demo data loads, the
-- server renders every tile of the data once per data version in the background and keeps it here, so a tile
-- nobody asked for since is read, not rendered, also by a server that was just started. A tile not stored yet is
-- rendered on demand as before and stored then. Rows of older versions are deleted once a newer one is current.
create table tile_store (
  version bigint not null,
  -- The tile set (tiles/layers.ts): any set, so a set added later is stored with nothing changed here.
  layer text not null,
  z smallint not null,
  x integer not null,
  y integer not null,
  -- The tile's protobuf as one gzip member; null for an empty tile.
  gzip bytea,
  primary key (version, layer, z, x, y)
);

-- One row per data version being or having been filled: progress for the log and `npm run datasets`, and
-- a lease, so that of several server processes on one database one fills at a time (another takes over
-- when the lease is not renewed).
create table tile_store_fill (
  version bigint primary key,
  -- The plan's parts (a rectangle of low-zoom tiles, or one tile at the zoom from which every deeper zoom is cut
  -- from the same rows, with all the tiles below it): known when filling starts, counted as each is stored.
  parts_total integer not null default 0,
  parts_done integer not null default 0,
  tiles integer not null default 0,
  bytes bigint not null default 0,
  started_at timestamptz not null default now(),
  finished_at timestamptz,
  owner text,
  lease_until timestamptz
);
