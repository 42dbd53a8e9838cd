import { describe, expect, it } from 'vitest'
import Feature from 'ol/Feature'
import type Style from 'ol/style/Style'
import { resolveProvince } from '#core/geo/provinces.ts'
import { legendFor } from './land-use.ts'
import { vietnamOutline } from './national-outline.ts'
import { createBasemapStyle, createNationalStyle, createParcelStyle, createPlanningStyle, darken, hexToRgba, selectedParcelStyle, streetWidthPx } from './styles.ts'

/** Resolution (m/px) of a Web Mercator zoom with 256-px tiles. */
const res = (zoom: number) => (2 * Math.PI * 6378137) / 256 / 2 ** zoom
const f = (props: Record<string, unknown>) => new Feature(props)
const list = (s: Style | Style[] | void | undefined): Style[] => (s === undefined ? [] : Array.isArray(s) ? s : [s])
const texts = (s: Style | Style[] | void | undefined) =>
  list(s)
    .map((x) => x.getText()?.getText())
    .filter(Boolean)
const strokeWidths = (s: Style | Style[] | void | undefined) => list(s).map((x) => x.getStroke()?.getWidth() ?? 0)

const normal = { highContrast: false }
const bright = { highContrast: true }

describe('basemap style', () => {
  const style = createBasemapStyle(normal)

  it('draws streets by class: a main road is wider than a street, a street wider than an alley', () => {
    const widest = (cls: string) => Math.max(...strokeWidths(style(f({ layer: 'streets', class: cls, name: 'X' }), res(16))))
    expect(widest('main')).toBeGreaterThan(widest('street'))
    expect(widest('street')).toBeGreaterThan(widest('alley'))
    expect(streetWidthPx('main', 18)).toBeGreaterThan(streetWidthPx('main', 16))
  })

  it('labels a street in Vietnamese along the line only from its class’s zoom', () => {
    const street = f({ layer: 'streets', class: 'street', name: 'Đường Nguyễn Văn Đậu' })
    expect(texts(style(street, res(14)))).toEqual([])
    const labelled = list(style(street, res(16))).find((s) => s.getText())
    expect(labelled?.getText()?.getText()).toBe('Đường Nguyễn Văn Đậu')
    expect(labelled?.getText()?.getPlacement()).toBe('line')
    expect(texts(style(f({ layer: 'streets', class: 'main', name: 'Đường Lê Văn Sỹ' }), res(14)))).toEqual(['Đường Lê Văn Sỹ'])
  })

  it('fills water blue and green areas green, and skips layers it does not know', () => {
    expect(
      list(style(f({ layer: 'water' }), res(15)))[0]
        ?.getFill()
        ?.getColor(),
    ).toBe('#9fd3f0')
    expect(
      list(style(f({ layer: 'green' }), res(15)))[0]
        ?.getFill()
        ?.getColor(),
    ).toBe('#c6e8b5')
    expect(style(f({ layer: 'unknown' }), res(15))).toBeUndefined()
  })

  it('tints land use faintly by kind and names places, a city larger than a neighbourhood', () => {
    const tint = (kind: string) =>
      list(style(f({ layer: 'landuse', kind }), res(15)))[0]
        ?.getFill()
        ?.getColor()
    expect(tint('industrial')).not.toBe(tint('residential'))
    const size = (kind: string) => {
      const font =
        list(style(f({ layer: 'places', kind, name: 'Thủ Đức' }), res(12)))[0]
          ?.getText()
          ?.getFont() ?? ''
      return Number(/(\d+)px/.exec(font)?.[1])
    }
    expect(size('city')).toBeGreaterThan(size('neighbourhood'))
    expect(texts(style(f({ layer: 'places', kind: 'suburb', name: 'Phường Thảo Điền' }), res(13)))).toEqual(['Phường Thảo Điền'])
    expect(style(f({ layer: 'places', kind: 'suburb' }), res(13))).toBeUndefined()
  })

  it('draws heavier, black-on-white labels in high-contrast mode', () => {
    const street = f({ layer: 'streets', class: 'main', name: 'Đường A' })
    const text = (o: typeof normal) =>
      list(createBasemapStyle(o)(street, res(16)))
        .find((s) => s.getText())!
        .getText()!
    expect(text(bright).getFill()?.getColor()).toBe('#000000')
    expect(text(bright).getStroke()!.getWidth()!).toBeGreaterThan(text(normal).getStroke()!.getWidth()!)
  })
})

describe('planning style', () => {
  const style = createPlanningStyle({ ...normal, reserveFill: 'hatch' })

  it('fills a zone with its land-use colour and outlines it in a darker shade', () => {
    const [zone] = list(style(f({ layer: 'zones', color: '#ffa0ff', land_use_code: 'ODT' }), res(14)))
    expect(zone?.getFill()?.getColor()).toBe('rgba(255,160,255,0.9)')
    expect(zone?.getStroke()?.getColor()).toBe(darken('#ffa0ff'))
  })

  it('writes the land-use code and block code on a zone from z14.5 until parcel numbers appear at z16, never on top of them', () => {
    const zone = f({ layer: 'zones', color: '#ffaa32', land_use_code: 'DGT', block_code: 'II.3' })
    expect(texts(style(zone, res(14)))).toEqual([])
    expect(texts(style(zone, res(15.5)))).toEqual(['DGT\nII.3'])
    expect(texts(style(zone, res(16)))).toEqual([])
    expect(texts(style(zone, res(18)))).toEqual([])
  })

  it('hatches road reserves with the given pattern and a dashed red edge', () => {
    const [reserve] = list(style(f({ layer: 'road_reserves', road_name: 'Đường A', width_m: 20 }), res(17)))
    expect(reserve?.getFill()?.getColor()).toBe('hatch')
    expect(reserve?.getStroke()?.getColor()).toBe('#b91c1c')
    expect(reserve?.getStroke()?.getLineDash()?.length).toBeGreaterThan(0)
  })
})

describe('parcel style', () => {
  const style = createParcelStyle(normal)
  const parcel = f({ layer: 'parcels', id: '17931', sheet_no: 1, parcel_no: 5 })

  it('draws nothing below z16, then a faint outline with the parcel number, full strength from z17', () => {
    expect(style(parcel, res(15.5))).toBeUndefined()
    const [z16] = list(style(parcel, res(16)))
    expect(z16?.getStroke()?.getColor()).toBe('rgba(51,65,85,0.55)')
    expect(z16?.getText()?.getText()).toBe('5')
    const [z17] = list(style(parcel, res(17)))
    expect(z17?.getStroke()?.getColor()).toBe('#334155')
    expect(z17?.getText()?.getText()).toBe('5')
  })

  it('writes the number only on the piece of a parcel its tile marks for the label, so a parcel across tiles shows it once', () => {
    expect(list(style(f({ layer: 'parcels', id: '17931', parcel_no: 5, label: false }), res(17)))[0]?.getText()).toBeFalsy()
    expect(
      list(style(f({ layer: 'parcels', id: '17931', parcel_no: 5, label: true }), res(17)))[0]
        ?.getText()
        ?.getText(),
    ).toBe('5')
  })

  it('gives every parcel a transparent fill so hovering inside it finds it', () => {
    expect(
      list(style(parcel, res(18)))[0]
        ?.getFill()
        ?.getColor(),
    ).toBe('rgba(0,0,0,0)')
  })

  it('draws thicker black outlines in high-contrast mode', () => {
    const [s] = list(createParcelStyle(bright)(parcel, res(18)))
    expect(s?.getStroke()?.getColor()).toBe('#000000')
    expect(s?.getStroke()?.getWidth()).toBeGreaterThan(
      list(style(parcel, res(18)))[0]!
        .getStroke()!
        .getWidth()!,
    )
  })

  it('marks the looked-up parcel with a dark line on a white casing', () => {
    expect(selectedParcelStyle.map((s) => s.getStroke()?.getColor())).toEqual(['#ffffff', '#0c4a6e'])
  })
})

describe('national outline style', () => {
  it('labels Hoàng Sa and Trường Sa as Việt Nam’s', () => {
    const style = createNationalStyle(normal)
    expect(texts(style(f({ kind: 'archipelago', name: 'Quần đảo Hoàng Sa\n(Việt Nam)' }), res(5)))).toEqual(['Quần đảo Hoàng Sa\n(Việt Nam)'])
  })

  it('names each of the 34 provinces once, by its name since 1 July 2025, from z6', () => {
    const labels = vietnamOutline.features.filter((x) => x.properties?.kind === 'province-label').map((x) => String(x.properties?.name))
    expect(new Set(labels).size).toBe(34)
    for (const name of labels) expect(resolveProvince(name)?.mergedInto).toBe(name)
    const style = createNationalStyle(normal)
    expect(texts(style(f({ kind: 'province-label', name: 'Thành phố Đà Nẵng' }), res(8)))).toEqual(['TP. Đà Nẵng'])
    expect(style(f({ kind: 'province-label', name: 'Thành phố Đà Nẵng' }), res(5))).toBeUndefined()
  })
})

describe('colours and legend', () => {
  it('turns a hex colour into rgba and falls back to grey for a bad one', () => {
    expect(hexToRgba('#ffaa32', 0.5)).toBe('rgba(255,170,50,0.5)')
    expect(hexToRgba('red', 1)).toBe('rgba(204,204,204,1)')
    expect(darken('#ffffff', 0.5)).toBe('#808080')
  })

  it('lists each code on screen once, with its Vietnamese name, in the table’s order', () => {
    expect(legendFor([{ code: 'DGT' }, { code: 'ODT', color: '#ffa0ff' }, { code: 'DGT' }, { code: 'XYZ' }])).toEqual([
      { code: 'ODT', name: 'Đất ở tại đô thị', color: '#ffa0ff' },
      { code: 'DGT', name: 'Đất giao thông', color: '#ffaa32' },
      { code: 'XYZ', name: 'XYZ', color: '#cccccc' },
    ])
  })
})
