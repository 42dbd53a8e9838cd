import { useEffect, useState } from 'react'
import { fetchTileJson } from './tilejson.ts'
import type { TileJson, TileLayerId } from '#core/contract/tiles.ts'

/**
 * One tile set's TileJSON for a screen, read when it mounts. Apart from tilejson.ts, which stays free of
 * React: the /demo boot map reads the TileJSONs through it before React has loaded.
 */
export function useTileJson(layer: TileLayerId): { data?: TileJson; failed: boolean } {
  const [state, setState] = useState<{ data?: TileJson; failed: boolean }>({ failed: false })
  useEffect(() => {
    const ctrl = new AbortController()
    fetchTileJson(layer, ctrl.signal).then(
      (data) => setState({ data, failed: false }),
      (err: unknown) => {
        if (!ctrl.signal.aborted) {
          console.info('tilejson unavailable:', err instanceof Error ? err.message : err)
          setState({ failed: true })
        }
      },
    )
    return () => ctrl.abort()
  }, [layer])
  return state
}
