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
    coordinates: [
      [
        [
          [106.6908861, 10.80256],
          [106.6909283, 10.80256],
          [106.6909283, 10.8026967],
          [106.6908861, 10.8026967],
          [106.6908861, 10.80256],
        ],
      ],
    ],
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
    confidence: 0.8,
    method:
      'Trung vị có trọng số của đơn giá đã điều chỉnh từ 40 giao dịch trong bán kính 300 m. Thửa này đã được bán tháng 5/2025.',
    as_of: '2026-06-30',
    confidence_level: 'cao',
    warnings: [],
    inputs: [
      { field: 'area_m2', value: 69.7, from: 'parcel' },
      { field: 'frontage_m', value: 4.61, from: 'parcel' },
      { field: 'alley_width_m', value: 0, from: 'parcel' },
      { field: 'floors', value: null, from: 'default' },
      { field: 'vt1', value: 58_066_000, from: 'parcel' },
    ],
  },
  comparables: [
    {
      id: '2978',
      lat: 10.8026247,
      lng: 106.6909069,
      date: '2025-05-23',
      price_vnd: 7_175_000_000,
      vnd_per_m2: 102_941_176,
      area_m2: 69.7,
      distance_m: 0.4,
      adjustments: [
        { factor: 'location', pct: 0, vnd_per_m2: 0, note: 'Cùng mức giá nhà nước VT1 của tuyến đường' },
        { factor: 'alley', pct: 0, vnd_per_m2: 0, note: 'Cùng là mặt tiền' },
        { factor: 'area', pct: 0, vnd_per_m2: 0, note: 'Cùng diện tích' },
        { factor: 'frontage', pct: 0, vnd_per_m2: 0, note: 'Cùng chiều ngang' },
        { factor: 'time', pct: 7.49, vnd_per_m2: 7_710_294, note: 'Bán 13 tháng trước, đưa về giá hôm nay' },
      ],
      adjusted_vnd_per_m2: 110_651_470,
      weight: 0.6,
      repeat_sale: true,
      same_row: false,
      frontage_m: 4.61,
      alley_width_m: null,
      floors: 4,
    },
    {
      id: '40',
      lat: 10.802219,
      lng: 106.6908125,
      date: '2025-09-01',
      price_vnd: 21_437_000_000,
      vnd_per_m2: 174_142_973,
      area_m2: 123.1,
      distance_m: 46.4,
      adjustments: [
        {
          factor: 'location',
          pct: -68.26,
          vnd_per_m2: -118_869_993,
          note: 'Giá nhà nước VT1 của tuyến 58,1 triệu thay vì 180,7 triệu đ/m²',
        },
        { factor: 'alley', pct: 101.3, vnd_per_m2: 55_991_528, note: 'Mặt tiền thay vì hẻm 1,8 m' },
        { factor: 'area', pct: 11.82, vnd_per_m2: 13_151_465, note: '69,7 m² thay vì 123,1 m²' },
        { factor: 'frontage', pct: -0.6, vnd_per_m2: -746_496, note: 'Ngang 4,6 m thay vì 4,8 m' },
        { factor: 'time', pct: 5.56, vnd_per_m2: 6_876_023, note: 'Bán 10 tháng trước, đưa về giá hôm nay' },
      ],
      adjusted_vnd_per_m2: 130_545_500,
      weight: 0.4,
      repeat_sale: false,
      same_row: false,
      frontage_m: 4.79,
      alley_width_m: 1.8,
      floors: 3,
    },
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
      replaced_by: null,
      geometry: { type: 'Polygon', coordinates: [] },
    },
  ],
  overlays: [],
  road_reserves: [{ road_name: 'Đường Đinh Tiên Hoàng', width_m: 20, affected_area_m2: 12.5 }],
  location,
  source,
}
