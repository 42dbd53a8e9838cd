import { BlockList, isIP } from 'node:net'
import type { Context } from 'hono'
import { getConnInfo } from '@hono/node-server/conninfo'
import type { Config } from '../config.ts'

export type ProxyTrust = Pick<Config, 'trustProxy' | 'trustedProxies'>

/** TRUSTED_PROXIES (addresses and CIDR ranges) as a lookup; invalid entries were refused by the config. */
export function proxyList(entries: readonly string[]): BlockList {
  const list = new BlockList()
  for (const entry of entries) {
    const [address = '', bits] = entry.split('/')
    const type = isIP(address) === 6 ? 'ipv6' : 'ipv4'
    if (bits === undefined) list.addAddress(address, type)
    else list.addSubnet(address, Number(bits), type)
  }
  return list
}

const lists = new WeakMap<readonly string[], BlockList>()

function isTrustedHop(hop: string, trusted: readonly string[]): boolean {
  const type = isIP(hop)
  if (type === 0) return false
  let list = lists.get(trusted)
  if (!list) lists.set(trusted, (list = proxyList(trusted)))
  return list.check(hop, type === 6 ? 'ipv6' : 'ipv4')
}

/**
 * The address rate limits are keyed on. Without TRUST_PROXY, X-Forwarded-For is ignored: any client
 * can send it. Behind a trusted proxy, each proxy appends the address it received the request from,
 * so only the right end of the list is written by proxies; whatever a client put there itself sits to
 * the left. The client is the right-most hop that is not one of the TRUSTED_PROXIES (further proxies
 * in front of the one the server talks to). Requests built in tests have no socket at all.
 */
export function clientIp(c: Context, trust: ProxyTrust): string {
  if (trust.trustProxy) {
    const hops = (c.req.header('x-forwarded-for') ?? '')
      .split(',')
      .map((h) => h.trim())
      .filter(Boolean)
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = hops[i] ?? ''
      if (i > 0 && isTrustedHop(hop, trust.trustedProxies)) continue
      return hop.slice(0, 64)
    }
  }
  try {
    return getConnInfo(c).remote.address ?? 'unknown'
  } catch {
    return 'unknown'
  }
}

/** The eight groups of an IPv6 address, or null; `::ffff:a.b.c.d` is read as its IPv4 address by the caller. */
function ipv6Groups(address: string): number[] | null {
  let text = address.split('%')[0] ?? ''
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)
  if (v4) {
    const [a, b, c, d] = (v4[1] ?? '').split('.').map(Number) as [number, number, number, number]
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
  }
  const [head = '', tail] = text.split('::')
  const parse = (s: string) => (s ? s.split(':').map((g) => parseInt(g, 16)) : [])
  const left = parse(head)
  const right = tail === undefined ? [] : parse(tail)
  const missing = 8 - left.length - right.length
  if (tail === undefined ? missing !== 0 : missing < 0) return null
  return [...left, ...Array<number>(missing).fill(0), ...right]
}

/**
 * What one party's counters are keyed on: the IPv4 address, or the /64 of an IPv6 address (one home
 * or phone gets a whole /64 and can pick any address in it). IPv4-mapped IPv6 counts as IPv4.
 */
export function addressKey(ip: string): string {
  if (isIP(ip) !== 6) return ip
  const groups = ipv6Groups(ip)
  if (!groups) return ip
  const isMapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff
  if (isMapped) return [groups[6] ?? 0, groups[7] ?? 0].flatMap((g) => [g >> 8, g & 0xff]).join('.')
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`
}
