import type { Config } from '../config.ts'

const LOOPBACK = /^(localhost|127(\.\d+){3}|\[::1\])$/

/**
 * What tile URLs in TileJSON start with: PUBLIC_URL when it is set to a real address, otherwise nothing
 * (URLs relative to the server, which the app resolves against the TileJSON's own address, so a phone on
 * the LAN or a proxy's host name still reaches them). Never the request's Host or X-Forwarded-Host: a
 * TileJSON is cached publicly, and a Host a client made up must not reach the next person through a cache.
 */
export function tileUrlBase(config: Pick<Config, 'publicUrl'>): string {
  if (LOOPBACK.test(new URL(config.publicUrl).hostname)) return ''
  return config.publicUrl.replace(/\/+$/, '')
}
