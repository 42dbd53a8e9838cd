/**
 * "In phiếu": the map view registers how to ready its map for the page (engine/print-map.ts); the
 * card's button prints once it is ready, and the screen gets its map back after the print dialog.
 */
import type { Point } from '../../lib/map-url.ts'
import type { ApiGeometry } from './engine/marks.ts'

/** What the extract is centred on: the card's parcel, or its point where there is no parcel. */
export type PrintFocus = { geometry: ApiGeometry | null; point: Point }

type Prepare = (focus: PrintFocus) => Promise<() => void>

let prepare: Prepare | null = null

/** Called by the map view with its map; returns the function that unregisters it. */
export function setPrintMap(next: Prepare): () => void {
  prepare = next
  return () => {
    if (prepare === next) prepare = null
  }
}

export async function printCard(focus: PrintFocus): Promise<void> {
  const restore = await prepare?.(focus)
  if (restore) window.addEventListener('afterprint', restore, { once: true })
  window.print()
}
