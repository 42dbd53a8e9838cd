/**
 * The app's one position source (the phone's location or a GNSS receiver over Web Serial), read by the
 * map, the boundary walk and stakeout: the fix with its solution type and honest accuracy, the stale
 * rule, the accuracy gate for captures, averaged points, and the readout every such screen shows.
 */
import './position.css'
export { usePosition } from './use-position.ts'
export { positionSource, type PositionSnapshot, type PositionStatus } from './source.ts'
export { checkCapture, type CaptureCheck } from './gate.ts'
export { averageOf, averageDone, type AveragedPoint, type AverageTarget } from './average.ts'
export { formatAccuracy, formatPrecise, formatAge, QUALITY_WORDS, type Fix, type FixQuality } from './fix.ts'
export { alarming, readoutLine } from './readout.ts'
export { PositionStatus as PositionStatusLine } from './components/PositionStatus.tsx'
