import { MAX_EDGE_PX } from './limits.ts'

/**
 * The size an image of `width` × `height` is drawn at so that its longer edge is at most `maxEdge`:
 * the aspect ratio kept, never enlarged, whole pixels, at least 1 px each way.
 */
export function fitWithin(
  width: number,
  height: number,
  maxEdge: number = MAX_EDGE_PX,
): { width: number; height: number } {
  if (!(width > 0 && height > 0)) throw new RangeError(`not an image size: ${width}×${height}`)
  const longer = Math.max(width, height)
  if (longer <= maxEdge) return { width: Math.round(width), height: Math.round(height) }
  const scale = maxEdge / longer
  return width >= height
    ? { width: maxEdge, height: Math.max(1, Math.round(height * scale)) }
    : { width: Math.max(1, Math.round(width * scale)), height: maxEdge }
}
