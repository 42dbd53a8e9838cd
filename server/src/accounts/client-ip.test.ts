import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { addressKey, clientIp } from './client-ip.ts'

/** The address clientIp finds for a request carrying this X-Forwarded-For (built without a socket). */
async function seen(xff: string | undefined, trust: { trustProxy: boolean; trustedProxies?: string[] }) {
  const app = new Hono().get('/', (c) => c.text(clientIp(c, { trustedProxies: [], ...trust })))
  const res = await app.request('/', { headers: xff === undefined ? {} : { 'x-forwarded-for': xff } })
  return res.text()
}

describe('clientIp', () => {
  it('ignores X-Forwarded-For unless the server is told it sits behind a proxy', async () => {
    expect(await seen('203.0.113.9', { trustProxy: false })).toBe('unknown')
  })

  it('takes the right-most hop behind a proxy, so addresses a client writes itself on the left are never believed', async () => {
    expect(await seen('203.0.113.9', { trustProxy: true })).toBe('203.0.113.9')
    expect(await seen('1.1.1.1, 2.2.2.2,203.0.113.9', { trustProxy: true })).toBe('203.0.113.9')
  })

  it('skips hops that are trusted proxies and stops at the first untrusted one from the right', async () => {
    const trust = { trustProxy: true, trustedProxies: ['10.0.0.0/8', '2001:db8:ffff::/48'] }
    expect(await seen('6.6.6.6, 198.51.100.4, 10.1.2.3, 10.0.0.1', trust)).toBe('198.51.100.4')
    expect(await seen('2001:db8:1::5, 2001:db8:ffff::1', trust)).toBe('2001:db8:1::5')
    // A client claiming to be a trusted proxy on the left changes nothing.
    expect(await seen('10.9.9.9, 198.51.100.4', trust)).toBe('198.51.100.4')
  })

  it('falls back to the connection when the header is empty', async () => {
    expect(await seen(' , ', { trustProxy: true })).toBe('unknown')
  })
})

describe('addressKey', () => {
  it('keys IPv4 on the address and IPv6 on its /64', () => {
    expect(addressKey('203.0.113.9')).toBe('203.0.113.9')
    expect(addressKey('2001:db8:1:2::a')).toBe('2001:db8:1:2::/64')
    expect(addressKey('2001:0db8:0001:0002:ffff:1:2:3')).toBe('2001:db8:1:2::/64')
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64')
    expect(addressKey('::1')).toBe('0:0:0:0::/64')
  })

  it('counts an IPv4-mapped IPv6 address as its IPv4 address', () => {
    expect(addressKey('::ffff:203.0.113.9')).toBe('203.0.113.9')
    expect(addressKey('::ffff:cb00:7109')).toBe('203.0.113.9')
  })

  it('leaves text that is no address as it is', () => {
    expect(addressKey('unknown')).toBe('unknown')
  })
})
