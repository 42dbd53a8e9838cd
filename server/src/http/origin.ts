import type { Context } from 'hono'
import type { Config } from '../config.ts'

const LOOPBACK = /^(localhost|127(\.\d+){3}|\[::1\])$/

/**
 * PUBLIC_URL when it is set to a real address; with the default (localhost) the tile URLs follow the
 * request, so a phone on the LAN or a proxy's host name gets URLs it can reach.
 */
export function tileOrigin(c: Context, config: Config): string {
  if (!LOOPBACK.test(new URL(config.publicUrl).hostname)) return config.publicUrl.replace(/\/+$/, '')
  const url = new URL(c.req.url)
  if (config.trustProxy) {
    const first = (h: string | undefined) => h?.split(',')[0]?.trim() || undefined
    const proto = first(c.req.header('x-forwarded-proto'))
    const host = first(c.req.header('x-forwarded-host'))
    if (proto === 'http' || proto === 'https') url.protocol = `${proto}:`
    if (host) url.host = host
  }
  return url.origin
}
