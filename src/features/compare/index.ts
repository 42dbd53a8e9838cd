/** Plan comparison ("So sánh"): what other screens need to send the user to it. */
export { comparableArea, bboxParam, type CompareSearch } from './compare.ts'
