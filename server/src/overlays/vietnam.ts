/**
 * A box around Việt Nam's land and sea territory, the Hoàng Sa and Trường Sa archipelagos included.
 * A scan placed outside it has a wrong world file or CRS (a VN-2000 sheet read with the wrong central
 * meridian lands hundreds of kilometres away, easting and northing swapped lands in the ocean).
 */
export const VIETNAM_BOX = { west: 102.1, south: 6.0, east: 117.9, north: 23.5 } as const
