/**
 * Land-use codes with their Vietnamese names and the colours planning maps use (DOMAIN.md's where it
 * gives one, a hue of its own for every other code; the server's land_use_codes table holds the same,
 * migrations 003 and 009). Tiles carry only the code and colour, so the legend names come
 * from here.
 */
export const landUse: Record<string, { name: string; color: string }> = {
  ODT: { name: 'Đất ở tại đô thị', color: '#ffa0ff' },
  ONT: { name: 'Đất ở tại nông thôn', color: '#ffd0ff' },
  TMD: { name: 'Đất thương mại, dịch vụ', color: '#faaaa0' },
  SKC: { name: 'Đất cơ sở sản xuất phi nông nghiệp', color: '#c89682' },
  DGT: { name: 'Đất giao thông', color: '#ffaa32' },
  SON: { name: 'Đất sông, ngòi, kênh, rạch, suối', color: '#a0ffff' },
  NTD: { name: 'Đất nghĩa trang, nghĩa địa', color: '#d2d2d2' },
  LUC: { name: 'Đất chuyên trồng lúa nước', color: '#ffff64' },
  LUK: { name: 'Đất trồng lúa nước còn lại', color: '#ffff96' },
  LUN: { name: 'Đất lúa nương', color: '#ffffb4' },
  HNK: { name: 'Đất trồng cây hằng năm khác', color: '#e6e6a0' },
  CLN: { name: 'Đất trồng cây lâu năm', color: '#ffc88c' },
  RSX: { name: 'Đất rừng sản xuất', color: '#b4ffb4' },
  NTS: { name: 'Đất nuôi trồng thuỷ sản', color: '#64c8dc' },
  DVH: { name: 'Đất xây dựng cơ sở văn hoá', color: '#dcb4f0' },
  DYT: { name: 'Đất xây dựng cơ sở y tế', color: '#ff6464' },
  DGD: { name: 'Đất xây dựng cơ sở giáo dục và đào tạo', color: '#b48cd2' },
  DKV: { name: 'Đất khu vui chơi, giải trí công cộng, cây xanh', color: '#aaff80' },
  CSD: { name: 'Đất chưa sử dụng', color: '#ffffff' },
}

/** Residential codes: a parcel used for housing inside a zone planned for anything else is "vướng quy hoạch". */
export const residentialCodes: ReadonlySet<string> = new Set(['ODT', 'ONT'])

export type LegendEntry = { code: string; name: string; color: string }

/** The legend for the codes on screen, in the order of the table above (unknown codes last, by code). */
export function legendFor(codes: Iterable<{ code: string; color?: string }>): LegendEntry[] {
  const seen = new Map<string, LegendEntry>()
  for (const { code, color } of codes) {
    if (!code || seen.has(code)) continue
    const known = landUse[code]
    seen.set(code, { code, name: known?.name ?? code, color: color ?? known?.color ?? '#cccccc' })
  }
  const order = Object.keys(landUse)
  const rank = (code: string) => {
    const i = order.indexOf(code)
    return i < 0 ? order.length : i
  }
  return [...seen.values()].sort((a, b) => rank(a.code) - rank(b.code) || a.code.localeCompare(b.code))
}
