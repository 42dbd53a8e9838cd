import { ENTRY_OVERHEAD_BYTES } from './estimate.ts'

/** When a cached tile was fetched (ms), so the worker knows when to revalidate it. */
export const FETCHED_AT = 'X-Qh-Fetched-At'

/**
 * A tile as both tile caches keep it: the body (none for an empty 204 tile, which is kept too, so the
 * map does not wait for it offline), its type and ETag, and when it was fetched. `bytes` is what it
 * takes on the device, counted the same way for the cap, the saved sizes and the estimate.
 */
export async function storableTile(res: Response, now: number): Promise<{ response: Response; bytes: number }> {
  const body = res.status === 204 ? null : await res.arrayBuffer()
  const headers = new Headers({ [FETCHED_AT]: String(now) })
  for (const name of ['Content-Type', 'ETag']) {
    const v = res.headers.get(name)
    if (v) headers.set(name, v)
  }
  return {
    response: new Response(body, { status: res.status, headers }),
    bytes: (body?.byteLength ?? 0) + ENTRY_OVERHEAD_BYTES,
  }
}
