/** How long browsers and shared caches keep a tile (and may serve it stale while revalidating). */
export const TILE_CACHE = 'public, max-age=3600, stale-while-revalidate=86400'

/** If-None-Match against our (weak) tag, with the weak comparison RFC 9110 prescribes for it. */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false
  const opaque = etag.replace(/^W\//, '')
  return header.split(',').some((t) => {
    const tag = t.trim()
    return tag === '*' || tag.replace(/^W\//, '') === opaque
  })
}
