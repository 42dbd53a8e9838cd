import fc from 'fast-check'
import { safeParse } from 'zod/mini'
import { describe, expect, it } from 'vitest'
import { latLngQuery, searchQuery } from '#core/contract/lookups.ts'
import { fastLatLng, fastSearch } from './fast-paths.ts'

/** What the route would get from the schema alone: its data, or undefined when it refuses. */
const schemaAnswer = (schema: typeof latLngQuery | typeof searchQuery, query: Record<string, string>) => {
  const parsed = safeParse(schema, query)
  return parsed.success ? parsed.data : undefined
}
/** A query string's parameters as hono hands them over: absent ones left out. */
const present = (q: Record<string, string | undefined>) =>
  Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined)) as Record<string, string>

/** Coordinates as query strings arrive: decimals, integers, edge values, other notations, junk. */
const coordinate = fc.oneof(
  fc.double({ min: -200, max: 200, noNaN: true }).map(String),
  fc.integer({ min: -200, max: 200 }).map(String),
  fc.constantFrom(
    '90',
    '-90',
    '180',
    '-180',
    '90.0000001',
    '-180.0000001',
    '0',
    '-0',
    '',
    ' ',
    ' 10.5 ',
    '1e1',
    '1E+2',
    '0x1F',
    '0b11',
    '+10',
    '10.',
    '.5',
  ),
  fc.constantFrom('NaN', 'Infinity', '-Infinity', 'abc', '10,5', '10.5.1', '1e400', '١٠'),
  fc.string({ maxLength: 8 }),
)
const other = fc.option(fc.string({ maxLength: 4 }), { nil: undefined })
const tapQuery = fc.record({ lat: coordinate, lng: coordinate, other }, { requiredKeys: [] })
/** Search text as typed: words with and without diacritics, spaces around, empty, very long, odd characters. */
const searchText = fc.oneof(
  fc.constantFrom(
    'Nguyễn Huệ',
    'nguyen hue',
    ' 12 Lê Lợi ',
    'duong h',
    '   ',
    '',
    'Phường Bến Nghé',
    '\t\n',
    '\u00a0Lê\u00a0',
    'x'.repeat(200),
    ` ${'y'.repeat(200)} `,
    'z'.repeat(201),
  ),
  fc.string({ maxLength: 12 }),
  fc.string({ minLength: 195, maxLength: 205 }),
)
const limitText = fc.oneof(
  fc.integer({ min: -5, max: 60 }).map(String),
  fc.constantFrom('', ' 10 ', '10.5', '1e1', '0x0A', 'abc', '50', '51', '1', '0', '-0', '9007199254740993'),
)
const searchQueryText = fc.record(
  { q: searchText, limit: limitText, lat: coordinate, lng: coordinate, other },
  { requiredKeys: [] },
)

describe('the fast path for a map tap’s lat/lng', () => {
  it('answers exactly what the schema answers for every query it vouches for, and leaves every other query to the schema', () => {
    fc.assert(
      fc.property(tapQuery, (q) => {
        expect(fastLatLng(present(q))).toStrictEqual(schemaAnswer(latLngQuery, present(q)))
      }),
      { numRuns: 5000 },
    )
  })

  it('vouches for the coordinates the map sends, so the schema is not run for them', () => {
    for (const [lat, lng] of [
      ['10.7974', '106.6996'],
      ['21.0285', '105.8542'],
      ['-90', '180'],
      ['8.6', '104.7'],
    ] as const) {
      expect(fastLatLng({ lat, lng })).toEqual({ lat: Number(lat), lng: Number(lng) })
    }
  })
})

describe('the fast path for search as people type', () => {
  it('answers exactly what the schema answers for every query it vouches for, and leaves every other query to the schema', () => {
    fc.assert(
      fc.property(searchQueryText, (q) => {
        const fast = fastSearch(present(q))
        if (fast !== undefined) expect(fast).toStrictEqual(schemaAnswer(searchQuery, present(q)))
        else expect(safeParse(searchQuery, present(q)).success).toBe(false)
      }),
      { numRuns: 5000 },
    )
  })

  it('vouches for the searches the search field sends, so the schema is not run for them', () => {
    expect(fastSearch({ q: 'Nguyễn Huệ' })).toEqual({ q: 'Nguyễn Huệ', limit: 10 })
    expect(fastSearch({ q: ' duong h ', limit: '10', lat: '10.7974', lng: '106.6996' })).toEqual({
      q: 'duong h',
      limit: 10,
      lat: 10.7974,
      lng: 106.6996,
    })
  })
})
