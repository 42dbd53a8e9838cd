import type { FeatureCollection } from 'geojson'

/**
 * A coarse outline of Việt Nam for small zooms, written by hand from well-known approximate points
 * (border towns, capes, river mouths), with the Hoàng Sa and Trường Sa archipelagos drawn and labelled
 * as Vietnamese, and the names of the 34 provinces. It is a locator, not a boundary: where the basemap has
 * data, its tiles take over from z10; elsewhere the outline stays at every zoom, so the map is never an empty page.
 */
export const vietnamOutline: FeatureCollection = {
  type: 'FeatureCollection',
  features: [
    {
      type: 'Feature',
      properties: { kind: 'mainland', name: 'Việt Nam' },
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            // Northern border, west to east: Lai Châu, Lào Cai, Hà Giang (Lũng Cú), Cao Bằng, Lạng Sơn, Móng Cái.
            [102.14, 22.4],
            [102.4, 22.7],
            [102.9, 22.58],
            [103.35, 22.8],
            [103.96, 22.5],
            [104.4, 22.8],
            [104.85, 23.1],
            [105.33, 23.38],
            [105.85, 22.95],
            [106.5, 22.95],
            [106.72, 22.82],
            [106.58, 22.35],
            [106.8, 21.98],
            [107.36, 21.6],
            [108.05, 21.52],
            // Coast, north to south: Hạ Long, Hải Phòng, the Red River delta, the central coast, Cape Varella.
            [107.8, 21.3],
            [107.05, 20.95],
            [106.8, 20.75],
            [106.55, 20.25],
            [106.05, 19.95],
            [105.9, 19.45],
            [105.7, 18.9],
            [106.1, 18.35],
            [106.5, 17.75],
            [106.95, 17.1],
            [107.55, 16.55],
            [108.2, 16.1],
            [108.3, 15.8],
            [108.85, 15.35],
            [108.9, 14.6],
            [109.2, 13.95],
            [109.3, 13.05],
            [109.46, 12.88],
            [109.2, 12.25],
            [109.2, 11.85],
            [109.0, 11.35],
            [108.55, 11.05],
            [108.1, 10.9],
            [107.55, 10.6],
            [107.1, 10.35],
            // Mekong delta to Cà Mau cape and up the Gulf of Thailand coast to Hà Tiên.
            [106.8, 10.35],
            [106.75, 10.0],
            [106.45, 9.7],
            [106.15, 9.4],
            [105.72, 9.28],
            [105.25, 8.75],
            [104.75, 8.58],
            [104.8, 9.3],
            [104.85, 9.8],
            [105.05, 10.0],
            [104.45, 10.4],
            // Border with Cambodia, then Laos, back to the north-west.
            [104.85, 10.55],
            [105.1, 10.7],
            [105.4, 10.95],
            [105.85, 10.9],
            [105.95, 11.35],
            [106.0, 11.7],
            [106.45, 11.95],
            [107.0, 12.1],
            [107.55, 12.25],
            [107.5, 12.8],
            [107.55, 13.5],
            [107.45, 14.0],
            [107.55, 14.7],
            [107.35, 15.0],
            [107.45, 15.45],
            [107.2, 15.9],
            [106.95, 16.25],
            [106.65, 16.45],
            [106.4, 16.9],
            [106.05, 17.35],
            [105.6, 18.0],
            [105.2, 18.6],
            [104.55, 18.75],
            [103.95, 19.25],
            [104.05, 19.6],
            [104.35, 19.9],
            [104.95, 20.25],
            [104.6, 20.65],
            [104.05, 20.95],
            [103.2, 20.85],
            [102.95, 21.15],
            [102.75, 21.7],
            [102.6, 22.2],
            [102.14, 22.4],
          ],
        ],
      },
    },
    {
      type: 'Feature',
      properties: { kind: 'island', name: 'Phú Quốc' },
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [103.85, 10.4],
            [104.05, 10.45],
            [104.1, 10.05],
            [103.95, 10.02],
            [103.85, 10.4],
          ],
        ],
      },
    },
    {
      type: 'Feature',
      properties: { kind: 'island', name: 'Côn Đảo' },
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [106.55, 8.65],
            [106.68, 8.65],
            [106.68, 8.75],
            [106.55, 8.75],
            [106.55, 8.65],
          ],
        ],
      },
    },
    {
      type: 'Feature',
      properties: { kind: 'archipelago', name: 'Quần đảo Hoàng Sa\n(Việt Nam)' },
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [111.2, 15.7],
            [112.9, 15.7],
            [112.9, 17.2],
            [111.2, 17.2],
            [111.2, 15.7],
          ],
        ],
      },
    },
    {
      type: 'Feature',
      properties: { kind: 'archipelago', name: 'Quần đảo Trường Sa\n(Việt Nam)' },
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [111.5, 8.6],
            [116.0, 8.6],
            [116.0, 11.5],
            [111.5, 11.5],
            [111.5, 8.6],
          ],
        ],
      },
    },
    {
      type: 'Feature',
      properties: { kind: 'country-label', name: 'VIỆT NAM' },
      geometry: { type: 'Point', coordinates: [104.6, 21.6] },
    },
    {
      type: 'Feature',
      properties: { kind: 'sea-label', name: 'Biển Đông' },
      geometry: { type: 'Point', coordinates: [113.6, 14.0] },
    },
    // The 34 provinces and cities since 1 July 2025 (Resolution 202/2025/QH15), each named near the middle of its land.
    {
      type: 'Feature',
      properties: { kind: 'province-label', name: 'Thành phố Hà Nội' },
      geometry: { type: 'Point', coordinates: [105.8, 21.02] },
    },
    {
      type: 'Feature',
      properties: { kind: 'province-label', name: 'Thành phố Huế' },
      geometry: { type: 'Point', coordinates: [107.55, 16.35] },
    },
    {
      type: 'Feature',
      properties: { kind: 'province-label', name: 'Lai Châu' },
      geometry: { type: 'Point', coordinates: [103.2, 22.3] },
    },
    {
      type: 'Feature',
      properties: { kind: 'province-label', name: 'Điện Biên' },
      geometry: { type: 'Point', coordinates: [103.05, 21.55] },
    },
    {
      type: 'Feature',
      properties: { kind: 'province-label', name: 'Sơn La' },
      geometry: { type: 'Point', coordinates: [104.05, 21.2] },
    },
    {
      type: 'Feature',
      properties: { kind: 'province-label', name: 'Lạng Sơn' },
      geometry: { type: 'Point', coordinates: [106.6, 21.85] },
    },
    {
      type: 'Feature',
      properties: { kind: 'province-label', name: 'Quảng Ninh' },
      geometry: { type: 'Point', coordinates: [107.35, 21.15] },
    },
    {
      type: 'Feature',
      properties: { kind: 'province-label', name: 'Thanh Hóa' },
      geometry: { type: 'Point', coordinates: [105.45, 20.0] },
    },
    {
      type: 'Feature',
      properties: { kind: 'province-label', name: 'Nghệ An' },
      geometry: { type: 'Point', coordinates: [104.9, 19.2] },
    },
    {
      type: 'Feature',
      properties: { kind: 'province-label', name: 'Hà Tĩnh' },
      geometry: { type: 'Point', coordinates: [105.7, 18.3] },
    },
    {
      type: 'Feature',
      properties: { kind: 'province-label', name: 'Cao Bằng' },
      geometry: { type: 'Point', coordinates: [106.1, 22.7] },
    },
    {
      type: 'Feature',
      properties: { kind: 'province-label', name: 'Tuyên Quang' },
      geometry: { type: 'Point', coordinates: [105.1, 22.4] },
    },
    {
      type: 'Feature',
      properties: { kind: 'province-label', name: 'Lào Cai' },
      geometry: { type: 'Point', coordinates: [104.3, 22.05] },
    },
    {
      type: 'Feature',
      properties: { kind: 'province-label', name: 'Thái Nguyên' },
      geometry: { type: 'Point', coordinates: [105.9, 21.85] },
    },
    {
      type: 'Feature',
      properties: { kind: 'province-label', name: 'Phú Thọ' },
      geometry: { type: 'Point', coordinates: [105.2, 21.1] },
    },
    {
      type: 'Feature',
      properties: { kind: 'province-label', name: 'Bắc Ninh' },
      geometry: { type: 'Point', coordinates: [106.35, 21.35] },
    },
    {
      type: 'Feature',
      properties: { kind: 'province-label', name: 'Hưng Yên' },
      geometry: { type: 'Point', coordinates: [106.2, 20.65] },
    },
    {
      type: 'Feature',
      properties: { kind: 'province-label', name: 'Thành phố Hải Phòng' },
      geometry: { type: 'Point', coordinates: [106.55, 20.85] },
    },
    {
      type: 'Feature',
      properties: { kind: 'province-label', name: 'Ninh Bình' },
      geometry: { type: 'Point', coordinates: [106.05, 20.3] },
    },
    {
      type: 'Feature',
      properties: { kind: 'province-label', name: 'Quảng Trị' },
      geometry: { type: 'Point', coordinates: [106.65, 17.1] },
    },
    {
      type: 'Feature',
      properties: { kind: 'province-label', name: 'Thành phố Đà Nẵng' },
      geometry: { type: 'Point', coordinates: [107.95, 15.65] },
    },
    {
      type: 'Feature',
      properties: { kind: 'province-label', name: 'Quảng Ngãi' },
      geometry: { type: 'Point', coordinates: [108.35, 14.9] },
    },
    {
      type: 'Feature',
      properties: { kind: 'province-label', name: 'Gia Lai' },
      geometry: { type: 'Point', coordinates: [108.4, 13.9] },
    },
    {
      type: 'Feature',
      properties: { kind: 'province-label', name: 'Khánh Hòa' },
      geometry: { type: 'Point', coordinates: [108.95, 12.1] },
    },
    {
      type: 'Feature',
      properties: { kind: 'province-label', name: 'Lâm Đồng' },
      geometry: { type: 'Point', coordinates: [107.9, 11.6] },
    },
    {
      type: 'Feature',
      properties: { kind: 'province-label', name: 'Đắk Lắk' },
      geometry: { type: 'Point', coordinates: [108.5, 12.9] },
    },
    {
      type: 'Feature',
      properties: { kind: 'province-label', name: 'Đồng Nai' },
      geometry: { type: 'Point', coordinates: [107.05, 11.35] },
    },
    {
      type: 'Feature',
      properties: { kind: 'province-label', name: 'Thành phố Hồ Chí Minh' },
      geometry: { type: 'Point', coordinates: [106.75, 10.8] },
    },
    {
      type: 'Feature',
      properties: { kind: 'province-label', name: 'Tây Ninh' },
      geometry: { type: 'Point', coordinates: [106.15, 11.05] },
    },
    {
      type: 'Feature',
      properties: { kind: 'province-label', name: 'Thành phố Cần Thơ' },
      geometry: { type: 'Point', coordinates: [105.8, 9.8] },
    },
    {
      type: 'Feature',
      properties: { kind: 'province-label', name: 'Vĩnh Long' },
      geometry: { type: 'Point', coordinates: [106.15, 10.05] },
    },
    {
      type: 'Feature',
      properties: { kind: 'province-label', name: 'Đồng Tháp' },
      geometry: { type: 'Point', coordinates: [105.9, 10.45] },
    },
    {
      type: 'Feature',
      properties: { kind: 'province-label', name: 'Cà Mau' },
      geometry: { type: 'Point', coordinates: [105.2, 9.1] },
    },
    {
      type: 'Feature',
      properties: { kind: 'province-label', name: 'An Giang' },
      geometry: { type: 'Point', coordinates: [105.2, 10.3] },
    },
  ],
}
