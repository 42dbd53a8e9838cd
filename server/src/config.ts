import { existsSync } from 'node:fs'
import { isIP } from 'node:net'
import { resolve } from 'node:path'
import { z } from 'zod'
import { DEFAULT_DAILY_LOOKUP_LIMIT } from '#core/limits.ts'

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes')

const urlish = (protocols: string[]) =>
  z.string().refine(
    (v) => {
      try {
        return protocols.includes(new URL(v).protocol)
      } catch {
        return false
      }
    },
    `must be a URL starting with ${protocols.join(' or ')}//`,
  )

function isAddressOrRange(entry: string): boolean {
  const [address = '', bits, extra] = entry.split('/')
  const kind = isIP(address)
  if (kind === 0 || extra !== undefined) return false
  return bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (kind === 6 ? 128 : 32))
}

/** Every environment variable the server reads; README lists the same table. */
const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: urlish(['postgres:', 'postgresql:']).optional(),
  /** A read replica of DATABASE_URL (streaming): search and map tiles read from it; writes and counted lookups stay on DATABASE_URL. */
  DATABASE_READ_URL: urlish(['postgres:', 'postgresql:']).optional(),
  DAILY_LOOKUP_LIMIT: z.coerce.number().int().min(1).max(1_000_000).default(DEFAULT_DAILY_LOOKUP_LIMIT),
  TOKEN_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  SMTP_URL: urlish(['smtp:', 'smtps:']).optional(),
  MAIL_FROM: z.string().min(3).default('Quy hoạch VN <no-reply@localhost>'),
  MAIL_OUTBOX_DIR: z.string().min(1).optional(),
  PUBLIC_URL: urlish(['http:', 'https:']).optional(),
  TRUST_PROXY: bool.default(false),
  /** Further proxies in front of the trusted one (addresses or CIDR ranges), skipped in X-Forwarded-For. */
  TRUSTED_PROXIES: z
    .string()
    .transform((v) =>
      v
        .split(',')
        .map((o) => o.trim())
        .filter(Boolean),
    )
    .pipe(
      z.array(z.string().refine(isAddressOrRange, 'must be comma-separated addresses or CIDR ranges like 10.0.0.0/8')),
    )
    .default([]),
  /** Where photo bytes live: disk (DATA_DIR/uploads), database (bytea) or s3://bucket/prefix. */
  UPLOAD_STORE: z
    .string()
    .regex(
      /^(disk|database|s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/[A-Za-z0-9_/-]*)?)$/,
      'must be disk, database or s3://bucket/prefix',
    )
    .optional(),
  S3_ENDPOINT: urlish(['http:', 'https:']).optional(),
  S3_REGION: z
    .string()
    .regex(/^[a-z0-9-]+$/, 'must be a region name like ap-southeast-1')
    .default('us-east-1'),
  AWS_ACCESS_KEY_ID: z.string().optional(),
  AWS_SECRET_ACCESS_KEY: z.string().optional(),
  /** The temporary credentials' token an IAM role gives with its keys. */
  AWS_SESSION_TOKEN: z.string().optional(),
  /** Accounts one address (one IPv6 /64) may register per hour. */
  REGISTRATIONS_PER_HOUR: z.coerce.number().int().min(1).max(1_000_000).default(10),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  BODY_LIMIT_KB: z.coerce.number().int().min(1).max(10_240).default(100),
  TILE_URL: z.string().optional(),
  TILE_ATTRIBUTION: z.string().optional(),
  BASEMAP_PMTILES: z
    .string()
    .optional()
    .refine((p) => p === undefined || existsSync(p), 'không có tệp PMTiles ở đường dẫn này'),
  DEMO_DATA: bool.default(true),
  /** Render every tile of the data ahead, once per data version, into the database's tile store (tiles/store.ts). */
  TILE_STORE: bool.default(true),
  /** The built front end to serve; default dist/ beside the server (tests serve a second build from elsewhere). */
  DIST_DIR: z.string().min(1).optional(),
  /** Other sites allowed to call the API from a browser, comma-separated origins; none by default. */
  CORS_ORIGINS: z
    .string()
    .transform((v) =>
      v
        .split(',')
        .map((o) => o.trim())
        .filter(Boolean),
    )
    .pipe(
      z.array(z.string().regex(/^https?:\/\/[^/?#\s]+$/, 'must be comma-separated origins like https://example.vn')),
    )
    .default([]),
  /** How long start-up keeps retrying a database it cannot reach before giving up. */
  DB_START_TIMEOUT_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
  /** Longest time one request (headers and body, an upload included) may take to arrive. */
  REQUEST_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(120),
  /** Photo uploads this process receives and processes at once (each may hold ~41 MB), and of them per account. */
  UPLOADS_IN_FLIGHT: z.coerce.number().int().min(1).max(1000).default(8),
  UPLOADS_PER_ACCOUNT: z.coerce.number().int().min(1).max(1000).default(2),
  /** Longest one database statement of a request may take, its wait for the database included. */
  STATEMENT_TIMEOUT_SECONDS: z.coerce.number().min(0.1).max(3600).default(30),
})

export type Config = {
  port: number
  host: string
  dataDir: string
  databaseUrl: string | undefined
  /** A streaming replica of databaseUrl for the reads that need not see a write at once (DATABASE_READ_URL). */
  databaseReadUrl: string | undefined
  dailyLookupLimit: number
  tokenTtlDays: number
  smtpUrl: string | undefined
  mailFrom: string
  mailOutboxDir: string
  publicUrl: string
  trustProxy: boolean
  trustedProxies: string[]
  /** `disk`, `database`, or `s3://…` with the bucket's location and keys in `s3`. */
  uploadStore: 'disk' | 'database' | `s3://${string}`
  s3:
    | { endpoint: string; region: string; accessKeyId: string; secretAccessKey: string; sessionToken?: string }
    | undefined
  registrationsPerHour: number
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent'
  bodyLimitBytes: number
  tileUrl: string | undefined
  tileAttribution: string | undefined
  /** A PMTiles archive of vector tiles that feeds the basemap layer instead of the database. */
  basemapPmtiles: string | undefined
  demoData: boolean
  /** Tiles rendered ahead into the database and served from there (TILE_STORE). */
  tileStore: boolean
  distDir: string
  corsOrigins: string[]
  dbStartTimeoutSeconds: number
  requestTimeoutSeconds: number
  statementTimeoutMs: number
  uploadsInFlight: number
  uploadsPerAccount: number
}

export class ConfigError extends Error {}

/** Reads and validates the environment; the first bad variable is named in one line. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''))
  const parsed = envSchema.safeParse(cleaned)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const name = String(issue?.path[0] ?? 'environment')
    throw new ConfigError(`Invalid ${name}=${JSON.stringify(env[name] ?? '')}: ${issue?.message ?? 'invalid'}`)
  }
  const e = parsed.data
  const dataDir = resolve(e.DATA_DIR)
  // With a shared database every process on every machine must see every photo: keep them in it.
  const uploadStore = (e.UPLOAD_STORE ?? (e.DATABASE_URL ? 'database' : 'disk')) as Config['uploadStore']
  if (uploadStore.startsWith('s3://') && !(e.AWS_ACCESS_KEY_ID && e.AWS_SECRET_ACCESS_KEY)) {
    throw new ConfigError(
      `Invalid UPLOAD_STORE=${JSON.stringify(env.UPLOAD_STORE)}: an S3 store needs AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY`,
    )
  }
  if (e.DATABASE_READ_URL && !e.DATABASE_URL) {
    throw new ConfigError('Invalid DATABASE_READ_URL: a read replica needs DATABASE_URL, the database it replicates')
  }
  if (uploadStore === 'database' && !e.DATABASE_URL) {
    throw new ConfigError(
      'Invalid UPLOAD_STORE="database": needs DATABASE_URL (the embedded database keeps photos on disk)',
    )
  }
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    databaseReadUrl: e.DATABASE_READ_URL,
    dailyLookupLimit: e.DAILY_LOOKUP_LIMIT,
    tokenTtlDays: e.TOKEN_TTL_DAYS,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    mailOutboxDir: resolve(e.MAIL_OUTBOX_DIR ?? `${dataDir}/outbox`),
    publicUrl: e.PUBLIC_URL ?? `http://localhost:${e.PORT}`,
    trustProxy: e.TRUST_PROXY,
    trustedProxies: e.TRUSTED_PROXIES,
    uploadStore,
    s3: uploadStore.startsWith('s3://')
      ? {
          endpoint: e.S3_ENDPOINT ?? `https://s3.${e.S3_REGION}.amazonaws.com`,
          region: e.S3_REGION,
          accessKeyId: e.AWS_ACCESS_KEY_ID ?? '',
          secretAccessKey: e.AWS_SECRET_ACCESS_KEY ?? '',
          ...(e.AWS_SESSION_TOKEN ? { sessionToken: e.AWS_SESSION_TOKEN } : {}),
        }
      : undefined,
    registrationsPerHour: e.REGISTRATIONS_PER_HOUR,
    logLevel: e.LOG_LEVEL,
    bodyLimitBytes: e.BODY_LIMIT_KB * 1024,
    tileUrl: e.TILE_URL,
    tileAttribution: e.TILE_ATTRIBUTION,
    basemapPmtiles: e.BASEMAP_PMTILES ? resolve(e.BASEMAP_PMTILES) : undefined,
    demoData: e.DEMO_DATA,
    tileStore: e.TILE_STORE,
    distDir: e.DIST_DIR ? resolve(e.DIST_DIR) : resolve(import.meta.dirname, '../../dist'),
    corsOrigins: e.CORS_ORIGINS,
    dbStartTimeoutSeconds: e.DB_START_TIMEOUT_SECONDS,
    requestTimeoutSeconds: e.REQUEST_TIMEOUT_SECONDS,
    statementTimeoutMs: Math.round(e.STATEMENT_TIMEOUT_SECONDS * 1000),
    uploadsInFlight: e.UPLOADS_IN_FLIGHT,
    uploadsPerAccount: e.UPLOADS_PER_ACCOUNT,
  }
}
