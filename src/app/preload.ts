type ConnectionInfo = { saveData?: boolean; effectiveType?: string }

/** Preloading on intent costs data: skipped when the user asked to save data or the link is 2G. */
export function preloadAllowed(connection: ConnectionInfo | undefined): boolean {
  if (!connection) return true
  if (connection.saveData) return false
  return connection.effectiveType !== 'slow-2g' && connection.effectiveType !== '2g'
}

export function currentConnection(): ConnectionInfo | undefined {
  return (navigator as Navigator & { connection?: ConnectionInfo }).connection
}

/**
 * Wraps a preload function so at most `max` run at once; further intents are dropped (the page still
 * loads on click) rather than queued behind slow ones. Also drops everything when preloading is not allowed.
 */
export function limitPreloads<A extends unknown[], R>(
  preload: (...args: A) => Promise<R>,
  opts: { max?: number; allowed?: () => boolean } = {},
): (...args: A) => Promise<R | undefined> {
  const max = opts.max ?? 4
  const allowed = opts.allowed ?? (() => preloadAllowed(currentConnection()))
  let running = 0
  return async (...args: A) => {
    if (running >= max || !allowed()) return undefined
    running += 1
    try {
      return await preload(...args)
    } finally {
      running -= 1
    }
  }
}
