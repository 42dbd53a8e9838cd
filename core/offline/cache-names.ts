/**
 * Names the page and the service worker must agree on: caches, IndexedDB databases (idb-keyval, one
 * store each), messages and the Background Sync tag. Plain constants, so the worker bundle stays small.
 */
export const tileCaches = {
  /** Tiles the map showed recently: capped, least recently used evicted first. */
  recent: 'tiles-v1',
  /** Tiles of the areas the user saved: never evicted, removed only with their last area. */
  saved: 'tiles-saved-v1',
  /** TileJSON of each layer, so the map knows its layers and data dates offline. */
  tileJson: 'tilejson-v1',
} as const

export const offlineDbs = {
  /** url → { bytes, at }: size and last use of each tile in the recent cache (the LRU's index). */
  recentTiles: ['qh-tiles-recent', 'entries'],
  /** url → { areas, bytes }: which saved areas hold each saved tile. */
  savedTiles: ['qh-tiles-saved', 'refs'],
  /** id → SavedArea: the saved areas and their download jobs. */
  areas: ['qh-offline-areas', 'areas'],
  /** Settings the service worker reads, e.g. the recent-tile cap chosen by the user. */
  settings: ['qh-offline-settings', 'settings'],
  /** id → OutboxItem: uploads waiting for a connection. */
  outbox: ['qh-outbox', 'items'],
  /** What the service worker needs to send the outbox while no page is open (the session token). */
  outboxAuth: ['qh-outbox-auth', 'auth'],
} as const satisfies Record<string, readonly [string, string]>

export const settingKeys = {
  /** Bytes; absent means automatic (200 MB or a share of the quota, whichever is smaller). */
  recentTileCap: 'recent-tile-cap',
} as const

/** Messages between the page and the service worker. */
export const swMessages = {
  /** page → worker: the recent-tile cap changed; re-read it and evict down to it. */
  tileSettingsChanged: 'TILE_SETTINGS_CHANGED',
  /** page → worker, answered on the given port: { bytes, count, capBytes } of the recent cache. */
  recentTileStats: 'RECENT_TILE_STATS',
  /** worker → pages: the outbox changed (the worker sent something). */
  outboxChanged: 'OUTBOX_CHANGED',
} as const

export const OUTBOX_SYNC_TAG = 'qh-outbox'

/**
 * Map tile URLs the service worker caches: the server's own vector tiles and raster planning overlays
 * (layer `raster/<id>`), never third-party rasters.
 */
export const TILE_PATH =
  /^\/tiles\/(basemap|planning|parcels|raster\/[A-Za-z0-9._-]{1,80})\/(\d{1,2})\/(\d{1,7})\/(\d{1,7})\.(?:pbf|png|webp)$/
/** TileJSON of the vector sets, and the list of raster overlays. */
export const TILEJSON_PATH = /^\/tiles\/(basemap|planning|parcels|overlays)\.json$/
