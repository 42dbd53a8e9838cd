/** Limits both sides enforce: the app checks them before sending, the server when receiving (docs/api.md). */

/** Photos per upload request and per valuation. */
export const MAX_PHOTOS = 4
/** Bytes of one image file as sent. */
export const MAX_FILE_BYTES = 10 * 1024 * 1024
/** Longest edge of a stored photo, in pixels: sharp enough for a report, a fraction of a phone photo's size. */
export const MAX_EDGE_PX = 2048
/** Counted lookups per account per Vietnamese calendar day, unless the deployment sets another. */
export const DEFAULT_DAILY_LOOKUP_LIMIT = 20
/** Largest area (km²) one plan comparison covers: a ward's centre at zoom 15 on a phone, a few seconds of geometry work. */
export const MAX_COMPARE_AREA_KM2 = 9
