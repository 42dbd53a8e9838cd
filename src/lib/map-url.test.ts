import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { decodeMapHash, encodeMapHash, initialState, linkPoint } from './map-url.ts'

describe('map state in the URL', () => {
  it('writes the view as #/{lat}/{lng}/{zoom} like the HCMC planning portal', () => {
    expect(encodeMapHash({ view: { lat: 10.79736175, lng: 106.69963005, zoom: 17.256 } })).toBe(
      '#/10.797362/106.69963/17.26',
    )
  })

  it('adds the selected point and the pin after the view', () => {
    const hash = encodeMapHash({
      view: { lat: 10.8, lng: 106.7, zoom: 18 },
      selection: { lat: 10.802628, lng: 106.690907 },
      pin: { lat: 10.81, lng: 106.71 },
    })
    expect(hash).toBe('#/10.8/106.7/18/sel/10.802628,106.690907/pin/10.81,106.71')
    expect(decodeMapHash(hash)).toEqual({
      view: { lat: 10.8, lng: 106.7, zoom: 18 },
      selection: { lat: 10.802628, lng: 106.690907 },
      pin: { lat: 10.81, lng: 106.71 },
    })
  })

  it('looks a chosen point up as its link carries it, so the link reopens the very same point', () => {
    const chosen = { lat: 10.7955123456, lng: 106.7001987654 }
    const sent = linkPoint(chosen)
    expect(sent).toEqual({ lat: 10.795512, lng: 106.700199 })
    expect(
      decodeMapHash(encodeMapHash({ view: { lat: 10.8, lng: 106.7, zoom: 18 }, selection: sent }))?.selection,
    ).toEqual(sent)
  })

  it('reads a portal link with or without the leading slash', () => {
    expect(decodeMapHash('#/10.77/106.70/15')).toEqual({ view: { lat: 10.77, lng: 106.7, zoom: 15 } })
    expect(decodeMapHash('10.77/106.70/15')).toEqual({ view: { lat: 10.77, lng: 106.7, zoom: 15 } })
  })

  it.each(['', '#', '#/abc/106/15', '#/95/106/15', '#/10/200/15', '#/10/106/30', '#/10/106', '#/1e2/106/15'])(
    'ignores the hash %j that is not a map view',
    (hash) => {
      expect(decodeMapHash(hash)).toBeUndefined()
    },
  )

  it('drops a malformed selection but keeps the view', () => {
    expect(decodeMapHash('#/10.8/106.7/18/sel/abc/pin/10.81,106.71,3')).toEqual({
      view: { lat: 10.8, lng: 106.7, zoom: 18 },
    })
  })

  it('decodes what it encodes to within 10 cm (property test)', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -85, max: 85, noNaN: true }),
        fc.double({ min: -180, max: 180, noNaN: true }),
        fc.double({ min: 0, max: 22, noNaN: true }),
        fc.option(
          fc.record({
            lat: fc.double({ min: -85, max: 85, noNaN: true }),
            lng: fc.double({ min: -180, max: 180, noNaN: true }),
          }),
          { nil: undefined },
        ),
        (lat, lng, zoom, selection) => {
          const back = decodeMapHash(encodeMapHash({ view: { lat, lng, zoom }, ...(selection ? { selection } : {}) }))!
          expect(Math.abs(back.view.lat - lat)).toBeLessThanOrEqual(5e-7)
          expect(Math.abs(back.view.lng - lng)).toBeLessThanOrEqual(5e-7)
          expect(Math.abs(back.view.zoom - zoom)).toBeLessThanOrEqual(0.005)
          if (selection) expect(Math.abs(back.selection!.lat - selection.lat)).toBeLessThanOrEqual(5e-7)
          else expect(back.selection).toBeUndefined()
        },
      ),
      { numRuns: 300 },
    )
  })

  it('opens at the hash first, then at ?lat&lng&z, else nowhere in particular', () => {
    expect(initialState('#/10.8/106.7/18', { lat: 21, lng: 105, z: 12 })?.view).toEqual({
      lat: 10.8,
      lng: 106.7,
      zoom: 18,
    })
    expect(initialState('', { lat: 21, lng: 105, z: 12 })?.view).toEqual({ lat: 21, lng: 105, zoom: 12 })
    expect(initialState('', { lat: 21, lng: 105 })?.view.zoom).toBe(17)
    expect(initialState('', {})).toBeUndefined()
  })
})
