export type ColorScheme = 'light' | 'dark'

const ATTRIBUTE = 'data-mantine-color-scheme'

/**
 * The colour scheme the page is drawn in: what Mantine writes on <html> ('auto' already resolved to
 * the system's, a route's forced scheme included), the same attribute the CSS follows. The map reads
 * it here rather than through React so it is right from the first frame and follows every change.
 */
export function pageScheme(): ColorScheme {
  return document.documentElement.getAttribute(ATTRIBUTE) === 'dark' ? 'dark' : 'light'
}

/** Calls `onChange` each time the page's scheme changes, until the returned function is called. */
export function watchPageScheme(onChange: (scheme: ColorScheme) => void): () => void {
  let last = pageScheme()
  const observer = new MutationObserver(() => {
    const now = pageScheme()
    if (now === last) return
    last = now
    onChange(now)
  })
  observer.observe(document.documentElement, { attributes: true, attributeFilter: [ATTRIBUTE] })
  return () => observer.disconnect()
}
