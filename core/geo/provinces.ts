import { foldVietnamese } from '../text/fold.ts'

/**
 * The provinces of Việt Nam, one place for their names and VN-2000 central meridians: the importer's
 * province column and --province, the lookup's VN-2000 readout and the app's coordinate panel all
 * resolve names here.
 *
 * Meridians are those of the 63 provinces as assigned with VN-2000 (Circular 973/2001/TT-TCĐC; the
 * ones DOMAIN.md lists agree). Since 1 July 2025 the 63 provinces are 34 (Resolution 202/2025/QH15);
 * every merged province kept the name of one of its parts, so a name resolves to that part and its
 * meridian, and `mergedInto` names the province it belongs to now. A merged province may span two
 * meridians (DOMAIN.md): data carries its own CRS, the name only gives the default.
 */
type Entry = { name: string; meridian: number; mergedInto: string; aliases?: string[] }

const HCM = 'Thành phố Hồ Chí Minh'
const table: Entry[] = [
  { name: 'Thành phố Hà Nội', meridian: 105, mergedInto: 'Thành phố Hà Nội', aliases: ['hn', 'tphn', 'hanoi'] },
  {
    name: HCM,
    meridian: 105.75,
    mergedInto: HCM,
    aliases: ['hcm', 'hcmc', 'tphcm', 'sai gon', 'saigon', 'ho chi minh city'],
  },
  { name: 'Thành phố Hải Phòng', meridian: 105.75, mergedInto: 'Thành phố Hải Phòng', aliases: ['hp'] },
  { name: 'Thành phố Đà Nẵng', meridian: 107.75, mergedInto: 'Thành phố Đà Nẵng', aliases: ['dn'] },
  { name: 'Thành phố Cần Thơ', meridian: 105, mergedInto: 'Thành phố Cần Thơ' },
  { name: 'Thành phố Huế', meridian: 107, mergedInto: 'Thành phố Huế', aliases: ['thua thien hue', 'tt hue'] },
  { name: 'Lai Châu', meridian: 103, mergedInto: 'Lai Châu' },
  { name: 'Điện Biên', meridian: 103, mergedInto: 'Điện Biên' },
  { name: 'Sơn La', meridian: 104, mergedInto: 'Sơn La' },
  { name: 'Lào Cai', meridian: 104.75, mergedInto: 'Lào Cai' },
  { name: 'Yên Bái', meridian: 104.75, mergedInto: 'Lào Cai' },
  { name: 'Hà Giang', meridian: 105.5, mergedInto: 'Tuyên Quang' },
  { name: 'Tuyên Quang', meridian: 106, mergedInto: 'Tuyên Quang' },
  { name: 'Cao Bằng', meridian: 105.75, mergedInto: 'Cao Bằng' },
  { name: 'Lạng Sơn', meridian: 107.25, mergedInto: 'Lạng Sơn' },
  { name: 'Bắc Kạn', meridian: 106.5, mergedInto: 'Thái Nguyên', aliases: ['bac can'] },
  { name: 'Thái Nguyên', meridian: 106.5, mergedInto: 'Thái Nguyên' },
  { name: 'Phú Thọ', meridian: 104.75, mergedInto: 'Phú Thọ' },
  { name: 'Vĩnh Phúc', meridian: 105, mergedInto: 'Phú Thọ' },
  { name: 'Hòa Bình', meridian: 106, mergedInto: 'Phú Thọ' },
  { name: 'Bắc Giang', meridian: 107, mergedInto: 'Bắc Ninh' },
  { name: 'Bắc Ninh', meridian: 105.5, mergedInto: 'Bắc Ninh' },
  { name: 'Quảng Ninh', meridian: 107.75, mergedInto: 'Quảng Ninh' },
  { name: 'Hải Dương', meridian: 105.5, mergedInto: 'Thành phố Hải Phòng' },
  { name: 'Hưng Yên', meridian: 105.5, mergedInto: 'Hưng Yên' },
  { name: 'Thái Bình', meridian: 105.5, mergedInto: 'Hưng Yên' },
  { name: 'Hà Nam', meridian: 105, mergedInto: 'Ninh Bình' },
  { name: 'Nam Định', meridian: 105.5, mergedInto: 'Ninh Bình' },
  { name: 'Ninh Bình', meridian: 105, mergedInto: 'Ninh Bình' },
  { name: 'Thanh Hóa', meridian: 105, mergedInto: 'Thanh Hóa' },
  { name: 'Nghệ An', meridian: 104.75, mergedInto: 'Nghệ An' },
  { name: 'Hà Tĩnh', meridian: 105.5, mergedInto: 'Hà Tĩnh' },
  { name: 'Quảng Bình', meridian: 106, mergedInto: 'Quảng Trị' },
  { name: 'Quảng Trị', meridian: 106.25, mergedInto: 'Quảng Trị' },
  { name: 'Quảng Nam', meridian: 107.75, mergedInto: 'Thành phố Đà Nẵng' },
  { name: 'Quảng Ngãi', meridian: 108, mergedInto: 'Quảng Ngãi' },
  { name: 'Kon Tum', meridian: 107.5, mergedInto: 'Quảng Ngãi' },
  { name: 'Bình Định', meridian: 108.25, mergedInto: 'Gia Lai' },
  { name: 'Gia Lai', meridian: 108.5, mergedInto: 'Gia Lai' },
  { name: 'Phú Yên', meridian: 108.5, mergedInto: 'Đắk Lắk' },
  { name: 'Đắk Lắk', meridian: 108.5, mergedInto: 'Đắk Lắk', aliases: ['dac lac'] },
  { name: 'Khánh Hòa', meridian: 108.25, mergedInto: 'Khánh Hòa' },
  { name: 'Ninh Thuận', meridian: 108.25, mergedInto: 'Khánh Hòa' },
  { name: 'Lâm Đồng', meridian: 107.75, mergedInto: 'Lâm Đồng' },
  { name: 'Đắk Nông', meridian: 108.5, mergedInto: 'Lâm Đồng', aliases: ['dac nong'] },
  { name: 'Bình Thuận', meridian: 108.5, mergedInto: 'Lâm Đồng' },
  { name: 'Bình Phước', meridian: 106.25, mergedInto: 'Đồng Nai' },
  { name: 'Đồng Nai', meridian: 107.75, mergedInto: 'Đồng Nai' },
  { name: 'Bình Dương', meridian: 105.75, mergedInto: HCM },
  { name: 'Bà Rịa - Vũng Tàu', meridian: 107.75, mergedInto: HCM, aliases: ['brvt', 'ba ria', 'vung tau'] },
  { name: 'Tây Ninh', meridian: 105.5, mergedInto: 'Tây Ninh' },
  { name: 'Long An', meridian: 105.75, mergedInto: 'Tây Ninh' },
  { name: 'Tiền Giang', meridian: 105.75, mergedInto: 'Đồng Tháp' },
  { name: 'Đồng Tháp', meridian: 105, mergedInto: 'Đồng Tháp' },
  { name: 'Bến Tre', meridian: 105.75, mergedInto: 'Vĩnh Long' },
  { name: 'Vĩnh Long', meridian: 105.5, mergedInto: 'Vĩnh Long' },
  { name: 'Trà Vinh', meridian: 105.5, mergedInto: 'Vĩnh Long' },
  { name: 'An Giang', meridian: 104.75, mergedInto: 'An Giang' },
  { name: 'Kiên Giang', meridian: 104.5, mergedInto: 'An Giang' },
  { name: 'Hậu Giang', meridian: 105, mergedInto: 'Thành phố Cần Thơ' },
  { name: 'Sóc Trăng', meridian: 105.5, mergedInto: 'Thành phố Cần Thơ' },
  { name: 'Bạc Liêu', meridian: 105, mergedInto: 'Cà Mau' },
  { name: 'Cà Mau', meridian: 104.5, mergedInto: 'Cà Mau' },
]

export type Province = {
  /** The official name (before the 2025 merger, which is how meridians were assigned). */
  name: string
  meridian: number
  /** The province it is part of since 1 July 2025 (itself when it kept its name). */
  mergedInto: string
  /** Every meridian used inside `mergedInto`, this one first: more than one means the name alone cannot decide. */
  meridiansAfterMerger: number[]
}

/**
 * The comparable core of a province name: folded (no diacritics, đ→d, lower case), punctuation as
 * spaces, without "Thành phố"/"TP."/"Tỉnh" in front or "city"/"province" behind, spaces removed:
 * "TP. Hồ Chí Minh", "Tp Hồ Chí Minh", "Thành phố Hồ Chí Minh" and "HO CHI MINH" all give "hochiminh".
 */
export function provinceKey(text: string): string {
  return foldVietnamese(text)
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .replace(/^(thanh pho|tp|t p|tinh|t)\s+/, '')
    .replace(/\s+(city|province)$/, '')
    .replace(/\s+/g, '')
}

const byKey = new Map<string, Province>()
for (const e of table) {
  const group = table.filter((o) => o.mergedInto === e.mergedInto)
  const meridians = [e.meridian, ...new Set(group.map((o) => o.meridian).filter((m) => m !== e.meridian))]
  const province: Province = {
    name: e.name,
    meridian: e.meridian,
    mergedInto: e.mergedInto,
    meridiansAfterMerger: meridians,
  }
  for (const key of [e.name, ...(e.aliases ?? [])].map(provinceKey)) byKey.set(key, province)
}

/** The province a name means, in any of its usual spellings; undefined for a name that is none. */
export function resolveProvince(text: string | null | undefined): Province | undefined {
  return text ? byKey.get(provinceKey(text)) : undefined
}

/** Every central meridian provinces use, west to east. */
export const knownMeridians: readonly number[] = [...new Set(table.map((e) => e.meridian))].sort((a, b) => a - b)

/** The provinces on each meridian, short names ("TP.HCM, Bình Dương, …"), for choosing one by hand. */
export function provincesOnMeridian(meridian: number): string[] {
  return table
    .filter((e) => e.meridian === meridian)
    .map((e) => (e.name === HCM ? 'TP.HCM' : e.name.replace(/^Thành phố /, '')))
}

/** The meridian nearest the longitude among those in use: a sensible default before the province is known. */
export function nearestMeridian(lng: number): number {
  return knownMeridians.reduce((best, m) => (Math.abs(m - lng) < Math.abs(best - lng) ? m : best), knownMeridians[0]!)
}

/** The province's meridian when the name is one (in any spelling), else the nearest to the longitude. */
export function meridianFor(lng: number, province?: string): number {
  return resolveProvince(province)?.meridian ?? nearestMeridian(lng)
}

/**
 * Rough bounding boxes [west, south, east, north] of the provinces whose VN-2000 central meridian
 * DOMAIN.md lists (boundaries before the 2025 merger, which is how the meridians were assigned).
 * Only good enough to pick a default meridian for a map position; a lookup result carries its
 * dataset's own meridian, which always wins, and the user can change the choice.
 */
const provinceBoxes: { name: string; box: [number, number, number, number] }[] = [
  { name: 'Thành phố Hà Nội', box: [105.28, 20.56, 106.02, 21.39] },
  { name: 'Thành phố Cần Thơ', box: [105.22, 9.92, 105.85, 10.33] },
  { name: 'Thành phố Hồ Chí Minh', box: [106.35, 10.37, 107.03, 11.17] },
  { name: 'Thành phố Hải Phòng', box: [106.4, 20.5, 107.1, 20.99] },
  { name: 'Bình Dương', box: [106.33, 10.85, 106.96, 11.5] },
  { name: 'Thành phố Đà Nẵng', box: [107.8, 15.9, 108.35, 16.2] },
  { name: 'Quảng Nam', box: [107.2, 14.9, 108.75, 16.05] },
  { name: 'Quảng Ninh', box: [106.4, 20.7, 108.1, 21.7] },
  { name: 'Đồng Nai', box: [106.75, 10.5, 107.6, 11.6] },
  { name: 'Lâm Đồng', box: [107.3, 11.2, 108.7, 12.4] },
  { name: 'Bà Rịa - Vũng Tàu', box: [107.0, 10.3, 107.6, 10.8] },
  { name: 'Khánh Hòa', box: [108.65, 11.8, 109.45, 12.9] },
  { name: 'Bình Phước', box: [106.4, 11.3, 107.45, 12.3] },
  { name: 'Đắk Nông', box: [107.2, 11.75, 108.1, 12.8] },
  { name: 'Bình Thuận', box: [107.4, 10.55, 108.9, 11.55] },
]

const area = (b: readonly number[]) => (b[2]! - b[0]!) * (b[3]! - b[1]!)
// Boxes overlap along shared borders; the smallest box holding the point is the likeliest province.
const bySize = [...provinceBoxes].sort((a, b) => area(a.box) - area(b.box))

/** The listed province whose box holds the point, smallest box first; undefined elsewhere. */
export function provinceAt(lat: number, lng: number): string | undefined {
  return bySize.find(({ box: [w, s, e, n] }) => lng >= w && lng <= e && lat >= s && lat <= n)?.name
}

export type MeridianChoice = { meridian: number; province: string | undefined }

/** The default meridian for a position: its province's, else the nearest one in use. */
export function autoMeridian(lat: number, lng: number): MeridianChoice {
  const province = provinceAt(lat, lng)
  if (province) return { meridian: resolveProvince(province)!.meridian, province }
  return { meridian: nearestMeridian(lng), province: undefined }
}
