import { describe, expect, it } from 'vitest'
import Feature from 'ol/Feature'
import type Style from 'ol/style/Style'
import type { StyleFunction } from 'ol/style/Style'
import { resolveProvince } from '#core/geo/provinces.ts'
import { mapConfig } from './config.ts'
import { landUseCodes as landUse } from '#core/planning/land-use.ts'
import { legendFor } from './land-use.ts'
import { vietnamOutline } from './national-outline.ts'
import {
  createBasemapLabelStyle,
  createBasemapStyle,
  createCoverageStyle,
  createNationalStyle,
  createParcelStyle,
  createPlanningStyle,
  darken,
  hexToRgba,
  legendSwatches,
  paletteFor,
  selectedParcelStyle,
  streetWidthPx,
  type StreetClass,
  type StyleOptions,
} from './styles.ts'

/** Resolution (m/px) of a Web Mercator zoom with 256-px tiles. */
const res = (zoom: number) => (2 * Math.PI * 6378137) / 256 / 2 ** zoom
const f = (props: Record<string, unknown>) => new Feature(props)
const list = (s: Style | Style[] | void | undefined): Style[] => (s === undefined ? [] : Array.isArray(s) ? s : [s])
const texts = (s: Style | Style[] | void | undefined) =>
  list(s)
    .map((x) => x.getText()?.getText())
    .filter(Boolean)
const strokeWidths = (s: Style | Style[] | void | undefined) => list(s).map((x) => x.getStroke()?.getWidth() ?? 0)

const normal: StyleOptions = { scheme: 'light', highContrast: false }
const bright: StyleOptions = { scheme: 'light', highContrast: true }
const looks: StyleOptions[] = [
  normal,
  bright,
  { scheme: 'dark', highContrast: false },
  { scheme: 'dark', highContrast: true },
]
const named = (o: StyleOptions) => `${o.scheme}${o.highContrast ? ', high contrast' : ''}`

describe('basemap style', () => {
  const style = createBasemapStyle(normal)
  const labels = createBasemapLabelStyle(normal)

  it('draws streets by class: a main road is wider than a street, a street wider than an alley', () => {
    const widest = (cls: string) =>
      Math.max(...strokeWidths(style(f({ layer: 'streets', class: cls, name: 'X' }), res(16))))
    expect(widest('main')).toBeGreaterThan(widest('street'))
    expect(widest('street')).toBeGreaterThan(widest('alley'))
    expect(streetWidthPx('main', 18)).toBeGreaterThan(streetWidthPx('main', 16))
  })

  it('labels a street in Vietnamese along the line only from its class’s zoom, in the labels layer and not with its shape', () => {
    const street = f({ layer: 'streets', class: 'street', name: 'Đường Nguyễn Văn Đậu' })
    expect(texts(labels(street, res(14)))).toEqual([])
    const labelled = list(labels(street, res(16))).find((s) => s.getText())
    expect(labelled?.getText()?.getText()).toBe('Đường Nguyễn Văn Đậu')
    expect(labelled?.getText()?.getPlacement()).toBe('line')
    expect(texts(labels(f({ layer: 'streets', class: 'main', name: 'Đường Lê Văn Sỹ' }), res(14)))).toEqual([
      'Đường Lê Văn Sỹ',
    ])
    expect(texts(style(street, res(16)))).toEqual([])
    expect(list(labels(street, res(16))).every((s) => !s.getStroke() && !s.getFill())).toBe(true)
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
        list(labels(f({ layer: 'places', kind, name: 'Thủ Đức' }), res(12)))[0]
          ?.getText()
          ?.getFont() ?? ''
      return Number(/(\d+)px/.exec(font)?.[1])
    }
    expect(size('city')).toBeGreaterThan(size('neighbourhood'))
    expect(texts(labels(f({ layer: 'places', kind: 'suburb', name: 'Phường Thảo Điền' }), res(13)))).toEqual([
      'Phường Thảo Điền',
    ])
    expect(labels(f({ layer: 'places', kind: 'suburb' }), res(13))).toBeUndefined()
  })

  it('draws heavier, black-on-white labels in high-contrast mode', () => {
    const street = f({ layer: 'streets', class: 'main', name: 'Đường A' })
    const text = (o: StyleOptions) =>
      list(createBasemapLabelStyle(o)(street, res(16)))
        .find((s) => s.getText())!
        .getText()!
    expect(text(bright).getFill()?.getColor()).toBe('#000000')
    expect(text(bright).getStroke()?.getColor()).toBe('#ffffff')
    expect(text(bright).getStroke()!.getWidth()!).toBeGreaterThan(text(normal).getStroke()!.getWidth()!)
  })
})

/** A colour the styles return ('#rrggbb' or 'rgba(r,g,b,a)') as its channels and alpha. */
type RGB = [number, number, number]
function parse(color: unknown): { rgb: RGB; alpha: number } {
  const text = String(color)
  const hex = /^#([0-9a-f]{6})$/i.exec(text)
  if (hex) {
    const n = parseInt(hex[1]!, 16)
    return { rgb: [(n >> 16) & 255, (n >> 8) & 255, n & 255], alpha: 1 }
  }
  const [r, g, b, a = 1] = (/^rgba?\(([^)]+)\)$/.exec(text)?.[1] ?? '').split(',').map(Number)
  if (r === undefined || g === undefined || b === undefined || [r, g, b, a].some(Number.isNaN))
    throw new Error(`not a colour: ${text}`)
  return { rgb: [r, g, b], alpha: a }
}
/** `top` painted over `base` as the canvas does (in sRGB), its alpha times the layer's opacity. */
const over = (top: unknown, base: RGB, opacity = 1): RGB => {
  const { rgb, alpha } = parse(top)
  const a = alpha * opacity
  return rgb.map((v, i) => a * v + (1 - a) * base[i]!) as RGB
}
const solid = (color: unknown) => parse(color).rgb
/** WCAG 2 contrast ratio of two colours. */
function contrast(x: RGB, y: RGB): number {
  const lum = (c: RGB) => {
    const [r, g, b] = c.map((v) => {
      const s = v / 255
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4
    }) as RGB
    return 0.2126 * r + 0.7152 * g + 0.0722 * b
  }
  const [hi, lo] = [lum(x), lum(y)].sort((a, b) => b - a) as [number, number]
  return (hi + 0.05) / (lo + 0.05)
}
const luminanceOf = (c: RGB) => contrast(c, [0, 0, 0]) * 0.05 - 0.05

/** The colours a look's styles return for the land, blocks, water, streets, parcels and planning zones. */
function colours(o: StyleOptions) {
  const base = createBasemapStyle(o)
  const first = (fn: StyleFunction, props: Record<string, unknown>, zoom: number) => list(fn(f(props), res(zoom)))
  const land = solid(paletteFor(o).land)
  const street = (cls: StreetClass) => {
    const [casing, fill] = first(base, { layer: 'streets', class: cls }, 16).map((x) =>
      solid(x.getStroke()?.getColor()),
    )
    return { casing: casing!, fill: fill! }
  }
  const planning = createPlanningStyle({ ...o, reserveFill: 'hatch' })
  const parcel = (zoom: number) => first(createParcelStyle(o), { layer: 'parcels', parcel_no: 5 }, zoom)[0]!
  return {
    land,
    blocks: solid(first(base, { layer: 'blocks' }, 16)[0]?.getFill()?.getColor()),
    water: solid(first(base, { layer: 'water' }, 16)[0]?.getFill()?.getColor()),
    street,
    /** Each land-use colour's fill as the planning layer draws it, before the layer's opacity. */
    zoneFills: Object.values(landUse).map((u) =>
      first(planning, { layer: 'zones', color: u.color }, 15)[0]!.getFill()!.getColor(),
    ),
    parcelLine: (zoom: number) => over(parcel(zoom).getStroke()?.getColor(), land),
    /** Every kind of name the map writes, each as its text and halo styles. */
    names: [
      ...first(createBasemapLabelStyle(o), { layer: 'streets', class: 'street', name: 'Đường A' }, 16),
      ...first(createBasemapLabelStyle(o), { layer: 'water', name: 'Kênh Nhiêu Lộc' }, 16),
      ...first(createBasemapLabelStyle(o), { layer: 'places', kind: 'suburb', name: 'Phường A' }, 13),
      ...first(createBasemapLabelStyle(o), { layer: 'landmarks', name: 'Chợ A' }, 17),
      ...first(createParcelStyle(o), { layer: 'parcels', parcel_no: 5 }, 17),
      ...first(planning, { layer: 'zones', color: '#ffa0ff', land_use_code: 'ODT' }, 15).slice(1),
      ...first(createNationalStyle(o), { kind: 'archipelago', name: 'Quần đảo Trường Sa' }, 6),
      ...first(createNationalStyle(o), { kind: 'province-label', name: 'Lâm Đồng' }, 8),
      ...first(createNationalStyle(o), { kind: 'sea-label', name: 'Biển Đông' }, 6),
      createCoverageStyle(o),
    ].map((x) => ({
      text: x.getText()!.getText(),
      fill: solid(x.getText()!.getFill()?.getColor()),
      halo: solid(x.getText()!.getStroke()?.getColor()),
    })),
  }
}

/** How far a street stands out from what is around it: its fill or its casing, whichever differs more. */
const streetEdge = (s: { casing: RGB; fill: RGB }, ground: RGB) =>
  Math.max(contrast(s.fill, ground), contrast(s.casing, ground))
/** The same under a planning zone's colour at the default opacity, the zone over street and ground alike. */
const washedEdge = (s: { casing: RGB; fill: RGB }, ground: RGB, zoneFill: unknown) => {
  const wash = (c: RGB) => over(zoneFill, c, mapConfig.planningOpacity)
  return streetEdge({ casing: wash(s.casing), fill: wash(s.fill) }, wash(ground))
}
/** The weakest street edge of a look, over the land and the blocks, under every planning colour. */
const weakestWashedEdge = (o: StyleOptions, cls: StreetClass) => {
  const c = colours(o)
  return Math.min(
    ...[c.land, c.blocks].flatMap((ground) => c.zoneFills.map((z) => washedEdge(c.street(cls), ground, z))),
  )
}

describe('the looks: light and dark, each with high contrast', () => {
  it('draws dark land, blocks and water with light names on dark halos in dark mode, and the reverse in light mode', () => {
    for (const o of looks) {
      const c = colours(o)
      const dark = o.scheme === 'dark'
      for (const ground of [c.land, c.blocks, c.water]) expect(luminanceOf(ground) < 0.1, named(o)).toBe(dark)
      for (const n of c.names) {
        expect(luminanceOf(n.fill) > 0.5, `${named(o)}: ${n.text}`).toBe(dark)
        expect(luminanceOf(n.halo) < 0.02, `${named(o)}: ${n.text}`).toBe(dark)
      }
    }
  })

  it('writes every name, the plan’s and the parcels’ included, on a halo it contrasts with by at least 7:1', () => {
    for (const o of looks)
      for (const n of colours(o).names)
        expect(contrast(n.fill, n.halo), `${named(o)}: ${n.text}`).toBeGreaterThanOrEqual(7)
  })

  it('edges each street with a casing that contrasts with its fill, and sets main roads and streets off the land by 3:1, alleys by 2:1', () => {
    for (const o of looks) {
      const c = colours(o)
      for (const cls of ['main', 'street', 'alley'] as const) {
        const s = c.street(cls)
        expect(contrast(s.fill, s.casing), `${named(o)}: ${cls}`).toBeGreaterThanOrEqual(2.5)
        for (const ground of [c.land, c.blocks])
          expect(streetEdge(s, ground), `${named(o)}: ${cls}`).toBeGreaterThanOrEqual(cls === 'alley' ? 2 : 3)
      }
    }
  })

  it('keeps main roads and streets apart from the land under every planning colour at the default opacity', () => {
    for (const o of looks)
      for (const cls of ['main', 'street'] as const)
        expect(weakestWashedEdge(o, cls), `${named(o)}: ${cls}`).toBeGreaterThanOrEqual(1.5)
  })

  it('draws parcel lines that stand out from the land in both schemes: dark by day, light at night', () => {
    for (const o of looks) {
      const c = colours(o)
      expect(contrast(c.parcelLine(17), c.land), named(o)).toBeGreaterThanOrEqual(3)
      expect(luminanceOf(c.parcelLine(17)) > luminanceOf(c.land), named(o)).toBe(o.scheme === 'dark')
    }
  })

  it('raises the contrast of names, streets and parcel lines in high contrast, over either scheme', () => {
    for (const scheme of ['light', 'dark'] as const) {
      const [plain, high] = [false, true].map((highContrast) => ({ scheme, highContrast }))
      const [p, h] = [colours(plain!), colours(high!)]
      const weakestName = (c: typeof p) => Math.min(...c.names.map((n) => contrast(n.fill, n.halo)))
      expect(weakestName(h), scheme).toBeGreaterThan(weakestName(p))
      for (const cls of ['main', 'street', 'alley'] as const) {
        expect(streetEdge(h.street(cls), h.blocks), `${scheme}: ${cls}`).toBeGreaterThan(
          streetEdge(p.street(cls), p.blocks),
        )
        expect(weakestWashedEdge(high!, cls), `${scheme}: ${cls}`).toBeGreaterThan(weakestWashedEdge(plain!, cls))
      }
      for (const zoom of [16, 17])
        expect(contrast(h.parcelLine(zoom), h.land), scheme).toBeGreaterThan(contrast(p.parcelLine(zoom), p.land))
    }
  })

  it('gives the legend a zone’s colour as the map shows it, at the planning opacity over the land, and the parcel line’s colours', () => {
    const dark: StyleOptions = { scheme: 'dark', highContrast: false }
    const swatches = legendSwatches(dark, 0.6)
    expect(swatches.zone('#ffa0ff')).toBe(
      `linear-gradient(rgba(255,160,255,0.54), rgba(255,160,255,0.54)), ${paletteFor(dark).land}`,
    )
    const line = list(createParcelStyle(dark)(f({ layer: 'parcels', parcel_no: 5 }), res(17)))[0]!
    expect(swatches.parcel).toEqual({
      borderColor: line.getStroke()?.getColor(),
      color: line.getText()?.getFill()?.getColor(),
    })
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

  it('writes a zone’s codes only on the piece its tile marks for the label, so a zone across tiles is not labelled twice side by side', () => {
    const piece = (label: boolean) =>
      f({ layer: 'zones', color: '#ffa0ff', land_use_code: 'ODT', block_code: 'H3', label })
    expect(texts(style(piece(false), res(15.5)))).toEqual([])
    expect(
      list(style(piece(false), res(15.5)))[0]
        ?.getFill()
        ?.getColor(),
    ).toBe('rgba(255,160,255,0.9)')
    expect(texts(style(piece(true), res(15.5)))).toEqual(['ODT\nH3'])
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

  it('shows the number at the working zooms 17–18 even on a parcel narrower than it, not only from z19.5', () => {
    expect(
      list(style(parcel, res(16)))[0]
        ?.getText()
        ?.getOverflow(),
    ).toBe(false)
    expect(
      list(style(parcel, res(17)))[0]
        ?.getText()
        ?.getOverflow(),
    ).toBe(true)
    expect(
      list(style(parcel, res(18)))[0]
        ?.getText()
        ?.getOverflow(),
    ).toBe(true)
  })

  it('writes the number only on the piece of a parcel its tile marks for the label, so a parcel across tiles shows it once', () => {
    expect(
      list(style(f({ layer: 'parcels', id: '17931', parcel_no: 5, label: false }), res(17)))[0]?.getText(),
    ).toBeFalsy()
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

  it('draws thicker black outlines in high-contrast mode, still lighter at z16 than from z17', () => {
    const width = (o: StyleOptions, zoom: number) =>
      list(createParcelStyle(o)(parcel, res(zoom)))[0]!
        .getStroke()!
        .getWidth()!
    expect(
      list(createParcelStyle(bright)(parcel, res(18)))[0]
        ?.getStroke()
        ?.getColor(),
    ).toBe('#000000')
    for (const zoom of [16, 18]) expect(width(bright, zoom)).toBeGreaterThan(width(normal, zoom))
    expect(width(bright, 16)).toBeLessThan(width(bright, 18))
  })

  it('marks the looked-up parcel with a dark line on a white casing', () => {
    expect(selectedParcelStyle.map((s) => s.getStroke()?.getColor())).toEqual(['#ffffff', '#0c4a6e'])
  })
})

describe('national outline style', () => {
  it('labels Hoàng Sa and Trường Sa as Việt Nam’s', () => {
    const style = createNationalStyle(normal)
    expect(texts(style(f({ kind: 'archipelago', name: 'Quần đảo Hoàng Sa\n(Việt Nam)' }), res(5)))).toEqual([
      'Quần đảo Hoàng Sa\n(Việt Nam)',
    ])
  })

  it('names each of the 34 provinces once, by its name since 1 July 2025, from z6', () => {
    const labels = vietnamOutline.features
      .filter((x) => x.properties?.kind === 'province-label')
      .map((x) => String(x.properties?.name))
    expect(new Set(labels).size).toBe(34)
    for (const name of labels) expect(resolveProvince(name)?.mergedInto).toBe(name)
    const style = createNationalStyle(normal)
    expect(texts(style(f({ kind: 'province-label', name: 'Thành phố Đà Nẵng' }), res(8)))).toEqual(['TP. Đà Nẵng'])
    expect(style(f({ kind: 'province-label', name: 'Thành phố Đà Nẵng' }), res(5))).toBeUndefined()
  })

  it('leaves the provinces’ names and the coast to the basemap’s boundaries where it draws them, keeping the land tint', () => {
    const style = createNationalStyle(normal, { boundaries: true })
    expect(style(f({ kind: 'province-label', name: 'Thành phố Đà Nẵng' }), res(8))).toBeUndefined()
    const land = list(style(f({ kind: 'mainland', name: 'Việt Nam' }), res(8)))
    expect(land.map((x) => [x.getFill()?.getColor() !== undefined, x.getStroke()])).toEqual([[true, null]])
    // Below z6 the basemap draws nothing: the outline's coast stays.
    expect(strokeWidths(style(f({ kind: 'mainland', name: 'Việt Nam' }), res(5)))).toEqual([1.2])
    expect(texts(style(f({ kind: 'archipelago', name: 'Quần đảo Trường Sa' }), res(8)))).toEqual(['Quần đảo Trường Sa'])
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
