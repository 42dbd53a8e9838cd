import type { Parcel, PlanningData, ValuationData } from '#core/contract/lookups.ts'

/** A parcel, planning and valuation answer shaped like the demo server's, for the valuation tests. */
export const parcelFixture: Parcel = {
  id: '17931',
  sheet_no: 1,
  parcel_no: 5,
  area_m2: 69.7,
  land_use: [{ code: 'ODT', name: 'Đất ở tại đô thị', area_m2: 69.7 }],
  address: '24 Đường Đinh Tiên Hoàng, Phường Gia An',
  ward: 'Phường Gia An',
  district: '',
  province: 'Thành phố Hồ Chí Minh',
  geometry: {
    type: 'MultiPolygon',
    coordinates: [[[[106.6908861, 10.80256], [106.6909283, 10.80256], [106.6909283, 10.8026967], [106.6908861, 10.8026967], [106.6908861, 10.80256]]]],
  },
}

const location = { lat: 10.8026283, lng: 106.6909072, vn2000: { x: 1194700.12, y: 605600.45, zone_meridian: 105.75 } }
const source = { dataset: 'demo', name: 'Phường mô phỏng — Dữ liệu mô phỏng', data_date: '2026-06-30' }

export const valuationFixture: ValuationData = {
  parcel: parcelFixture,
  state_price: {
    year: 2026,
    street: 'Đường Đinh Tiên Hoàng',
    segment: 'Từ Đường Phan Đăng Lưu đến Đường Điện Biên Phủ',
    position: 'VT1',
    price_vnd_per_m2: 58_066_000,
    source: 'Bảng giá đất TP.HCM 2026 (mô phỏng)',
  },
  market_estimate: {
    low_vnd: 6_927_000_000,
    mid_vnd: 8_038_000_000,
    high_vnd: 9_438_000_000,
    vnd_per_m2: 115_324_000,
    confidence: 0.82,
    method: 'Trung vị có trọng số của 40 giao dịch trong bán kính 300 m.',
    as_of: '2026-06-30',
  },
  comparables: [
    { id: '2978', lat: 10.8026247, lng: 106.6909069, date: '2025-05-23', price_vnd: 7_175_000_000, vnd_per_m2: 102_941_176, area_m2: 69.7, distance_m: 0.4 },
    { id: '40', lat: 10.802219, lng: 106.6908125, date: '2025-09-01', price_vnd: 21_437_000_000, vnd_per_m2: 174_142_973, area_m2: 123.1, distance_m: 46.4 },
  ],
  location,
  source,
}

export const planningFixture: PlanningData = {
  parcel: parcelFixture,
  zones: [
    {
      id: '9',
      plan_name: 'Quy hoạch phân khu Gia An',
      plan_level: 'QHPK 1/2000',
      approved_at: '2024-03-15',
      decision_no: '1234/QĐ-UBND',
      land_use_code: 'ODT',
      land_use_name: 'Đất ở tại đô thị',
      color: '#ffa0ff',
      max_density_pct: 80,
      max_floors: 5,
      max_far: 4,
      governing: true,
      geometry: { type: 'Polygon', coordinates: [] },
    },
  ],
  overlays: [],
  road_reserves: [{ road_name: 'Đường Đinh Tiên Hoàng', width_m: 20, affected_area_m2: 12.5 }],
  location,
  source,
}
