import { knownMeridians, provinceMeridians } from './vn2000.ts'

/**
 * Rough bounding boxes [west, south, east, north] of the provinces whose VN-2000 central meridian
 * DOMAIN.md lists (boundaries before the 2025 merger, which is how the meridians were assigned).
 * Only good enough to pick a default meridian for a map position; a lookup result carries its
 * dataset's own meridian, which always wins, and the user can change the choice.
 */
const provinceBoxes: { name: keyof typeof provinceMeridians; box: [number, number, number, number] }[] = [
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
  if (province) return { meridian: provinceMeridians[province]!, province }
  const meridian = knownMeridians.reduce<number>((best, m) => (Math.abs(m - lng) < Math.abs(best - lng) ? m : best), knownMeridians[0])
  return { meridian, province: undefined }
}
