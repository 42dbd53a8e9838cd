import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from './config.ts'

describe('loadConfig', () => {
  it('uses the documented defaults when nothing is set', () => {
    const c = loadConfig({})
    expect(c.port).toBe(3000)
    expect(c.dailyLookupLimit).toBe(20)
    expect(c.tokenTtlDays).toBe(30)
    expect(c.databaseUrl).toBeUndefined()
    expect(c.dataDir.endsWith('/data')).toBe(true)
    expect(c.mailOutboxDir).toBe(`${c.dataDir}/outbox`)
    expect(c.registrationsPerHour).toBe(10)
    expect(c.trustedProxies).toEqual([])
  })

  it('names the variable in one line when a value is bad', () => {
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(ConfigError)
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(/^Invalid PORT="abc"/)
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/Invalid DATABASE_URL/)
    expect(() => loadConfig({ TRUST_PROXY: 'maybe' })).toThrow(/Invalid TRUST_PROXY/)
    expect(() => loadConfig({ DAILY_LOOKUP_LIMIT: '0' })).toThrow(/Invalid DAILY_LOOKUP_LIMIT/)
    expect(() => loadConfig({ TRUSTED_PROXIES: '10.0.0.0/8, proxy.local' })).toThrow(/Invalid TRUSTED_PROXIES/)
    expect(() => loadConfig({ TRUSTED_PROXIES: '10.0.0.0/33' })).toThrow(/Invalid TRUSTED_PROXIES/)
    expect(() => loadConfig({ REGISTRATIONS_PER_HOUR: '0' })).toThrow(/Invalid REGISTRATIONS_PER_HOUR/)
  })

  it('reads TRUSTED_PROXIES as a list of addresses and CIDR ranges', () => {
    expect(loadConfig({ TRUSTED_PROXIES: '10.0.0.0/8, 2001:db8::/32,192.0.2.7' }).trustedProxies).toEqual([
      '10.0.0.0/8',
      '2001:db8::/32',
      '192.0.2.7',
    ])
  })

  it('keeps photos on disk with the embedded database and in PostgreSQL with DATABASE_URL, unless UPLOAD_STORE says otherwise', () => {
    expect(loadConfig({}).uploadStore).toBe('disk')
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h/db' }).uploadStore).toBe('database')
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h/db', UPLOAD_STORE: 'disk' }).uploadStore).toBe('disk')
    const s3 = loadConfig({
      UPLOAD_STORE: 's3://anh-quy-hoach/photos',
      AWS_ACCESS_KEY_ID: 'k',
      AWS_SECRET_ACCESS_KEY: 's',
      S3_REGION: 'ap-southeast-1',
    })
    expect(s3.s3).toEqual({
      endpoint: 'https://s3.ap-southeast-1.amazonaws.com',
      region: 'ap-southeast-1',
      accessKeyId: 'k',
      secretAccessKey: 's',
    })
    expect(() => loadConfig({ UPLOAD_STORE: 's3://anh-quy-hoach' })).toThrow(/AWS_ACCESS_KEY_ID/)
    expect(() => loadConfig({ UPLOAD_STORE: 'database' })).toThrow(/needs DATABASE_URL/)
    expect(() => loadConfig({ UPLOAD_STORE: 'ftp://x' })).toThrow(/Invalid UPLOAD_STORE/)
  })

  it('reads DATABASE_READ_URL as a replica of DATABASE_URL, and refuses one without DATABASE_URL in one line', () => {
    const primary = 'postgres://u@db1/qh'
    expect(loadConfig({ DATABASE_URL: primary, DATABASE_READ_URL: 'postgres://u@db2/qh' }).databaseReadUrl).toBe(
      'postgres://u@db2/qh',
    )
    expect(loadConfig({ DATABASE_URL: primary }).databaseReadUrl).toBeUndefined()
    expect(() => loadConfig({ DATABASE_READ_URL: 'postgres://u@db2/qh' })).toThrow(
      /^Invalid DATABASE_READ_URL: a read replica needs DATABASE_URL/,
    )
    expect(() => loadConfig({ DATABASE_URL: primary, DATABASE_READ_URL: 'mysql://x' })).toThrow(/DATABASE_READ_URL/)
  })

  it('treats empty variables as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', PORT: '' }).port).toBe(3000)
  })
})
