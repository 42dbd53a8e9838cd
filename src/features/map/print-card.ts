/**
 * "In phiếu": the map view registers how to ready its map for the page (engine/print-map.ts); the
 * card's button prints once it is ready, and the screen gets its map back after the print dialog.
 */
type Prepare = () => Promise<() => void>

let prepare: Prepare | null = null

/** Called by the map view with its map; returns the function that unregisters it. */
export function setPrintMap(next: Prepare): () => void {
  prepare = next
  return () => {
    if (prepare === next) prepare = null
  }
}

export async function printCard(): Promise<void> {
  const restore = await prepare?.()
  if (restore) window.addEventListener('afterprint', restore, { once: true })
  window.print()
}
