/** The parcel sketch (sơ đồ thửa đất): its page, and the outline and export functions the boundary walk shares. */
export { SketchPage } from './SketchPage.tsx'
export {
  outlineOf,
  outerRing,
  planeArea,
  planePerimeter,
  largestOffset,
  type Corner,
  type Outline,
  type LngLat,
} from './geometry.ts'
export { cornersCsv, outlineDxf, crsLabel } from './exports.ts'
export { SketchDrawing } from './components/SketchDrawing.tsx'
export { CornerTable } from './components/CornerTable.tsx'
export { loadSketch, type SketchQuery, type SketchResult, type SketchSubject } from './source.ts'
