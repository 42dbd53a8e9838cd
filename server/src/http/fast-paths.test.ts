import fc from 'fast-check'
import { safeParse } from 'zod/mini'
import { describe, expect, it } from 'vitest'
import { latLngQuery } from '#core/contract/lookups.ts'
import { fastLatLng } from './fast-paths.ts'

/** What the route would get from the schema alone: its data, or undefined when it refuses. */
const schemaAnswer = (query: Record<string, string>) => {
  const parsed = safeParse(latLngQuery, query)
  return parsed.success ? parsed.data : undefined
}

/** Coordinates as query strings arrive: decimals, integers, edge values, other notations, junk. */
const coordinate = fc.oneof(
  fc.double({ min: -200, max: 200, noNaN: true }).map(String),
  fc.integer({ min: -200, max: 200 }).map(String),
  fc.constantFrom('90', '-90', '180', '-180', '90.0000001', '-180.0000001', '0', '-0', '', ' ', ' 10.5 ', '1e1', '1E+2', '0x1F', '0b11', '+10', '10.', '.5'),
  fc.constantFrom('NaN', 'Infinity', '-Infinity', 'abc', '10,5', '10.5.1', '1e400', '١٠'),
  fc.string({ maxLength: 8 }),
)
const query = fc.record({ lat: coordinate, lng: coordinate, other: fc.option(fc.string({ maxLength: 4 }), { nil: undefined }) }, { requiredKeys: [] })

describe('the fast path for a map tap’s lat/lng', () => {
  it('answers exactly what the schema answers for every query it vouches for, and leaves every other query to the schema', () => {
    fc.assert(
      fc.property(query, (q) => {
        const input = Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined)) as Record<string, string>
        expect(fastLatLng(input)).toStrictEqual(schemaAnswer(input))
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
