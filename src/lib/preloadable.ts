import { lazy, type ComponentType } from 'react'

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any props, as React.lazy's own bound
export type Preloadable<T extends ComponentType<any>> = {
  /** Starts loading the chunk (once); safe to call early and often. */
  preload(): Promise<T>
  /**
   * The component to render for one mount: the loaded one once its chunk is in, else a React.lazy one. Call it
   * once per mount (`useState(() => x.pick())`): switching from the lazy component to the loaded one while
   * mounted would be a new component to React, which would drop its state.
   */
  pick(): T
}

/**
 * A component in its own chunk that renders at once when its chunk has already loaded. React.lazy suspends on
 * its first render even then, and React reveals a suspended boundary no sooner than 300 ms after its fallback
 * showed: the search box waited that long after its code was in, and the login dialog after a tap.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any props, as React.lazy's own bound
export function preloadable<T extends ComponentType<any>>(load: () => Promise<{ default: T }>): Preloadable<T> {
  let loaded: T | null = null
  let loading: Promise<T> | null = null
  const preload = (): Promise<T> => {
    loading ??= load().then(
      (m) => (loaded = m.default),
      (error: unknown) => {
        // A chunk that failed (offline, a new build) may be asked for again.
        loading = null
        throw error
      },
    )
    return loading
  }
  const Lazy = lazy(async () => ({ default: await preload() }))
  return { preload, pick: () => loaded ?? (Lazy as unknown as T) }
}
