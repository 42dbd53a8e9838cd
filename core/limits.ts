/** Limits both sides enforce: the app checks them before sending, the server when receiving (docs/api.md). */

/** Photos per upload request and per valuation. */
export const MAX_PHOTOS = 4
/** Bytes of one image file as sent. */
export const MAX_FILE_BYTES = 10 * 1024 * 1024
/** Longest edge of a stored photo, in pixels: sharp enough for a report, a fraction of a phone photo's size. */
export const MAX_EDGE_PX = 2048
/**
 * Most pixels a photo may decode to: above the 12–24 MP of a phone's usual photo and its 48 MP modes
 * read at 12, below what makes a small file a decompression bomb (110 MP cost a minute of server CPU).
 */
export const MAX_PHOTO_PIXELS = 40_000_000
/** Counted lookups per account per Vietnamese calendar day, unless the deployment sets another. */
export const DEFAULT_DAILY_LOOKUP_LIMIT = 20
/** Largest area (km²) one plan comparison covers: a ward's centre at zoom 15 on a phone, a few seconds of geometry work. */
export const MAX_COMPARE_AREA_KM2 = 9
/**
 * Most vertices the zones and road reserves in one compared place may hold together: what one comparison
 * clips and measures, seconds at most (what a larger one took: docs/performance.md, "Limits"). Past it the
 * place is refused before any clipping starts (the embedded database cannot stop a statement once it runs).
 */
export const MAX_COMPARE_VERTICES = 20_000
/**
 * The facts a person may type for a valuation, each a range a real parcel can have: a square metre to
 * 10 km², a metre of frontage to a kilometre, an alley from half a metre (0: the parcel fronts the street)
 * to 100 m, up to 100 floors. Anything outside is a typing slip, not a parcel, and priced would be nonsense.
 */
export const VALUATION_RANGES = {
  area_m2: { min: 1, max: 10_000_000 },
  frontage_m: { min: 1, max: 1_000 },
  alley_width_m: { min: 0.5, max: 100 },
  floors: { min: 0, max: 100 },
} as const
/**
 * Most vertices one imported feature (a parcel, a zone, a road) may have: four times the most detailed
 * shape in the real data seen (a province of the national boundaries, 5,580). A shape traced with more is
 * more than any screen or survey shows, and costs every lookup and comparison there (what a million-vertex
 * polygon cost: docs/performance.md, "Limits"). Such a feature is refused, saying so.
 */
export const MAX_FEATURE_VERTICES = 20_000
/**
 * Most vertices of one geometry in an answer: a shape with more is simplified (about a pixel of a
 * 2,048-pixel view of it) until it has at most this many, so no stored shape makes an answer heavy.
 */
export const MAX_ANSWER_VERTICES = 2_000
/** Longest name of a measurement kept on the device: room for "Lô đất sau nhà, cạnh hẻm 261 …" and more, not a page. */
export const MAX_MEASURE_NAME = 120
