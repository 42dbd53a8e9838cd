/**
 * The national land-use codes (mục đích sử dụng đất) as cadastral and planning files write them, each
 * with its Vietnamese name and the colour maps draw it in: the one list the server's land_use_codes
 * table, the map's planning colours, the legend and the result card all read. DOMAIN.md's colours
 * are kept where it gives one; every other code has a hue of its own within its family (rice land
 * yellow, crops ochre, forests green, water blue, housing pink, public works violet, production and
 * trade salmon and brown, unused land grey), far enough from the rest to be told apart in a legend.
 *
 * Group codes (NNP, LUA, HNK, OCT, CDG, DSN, CSK, CCC, PNN, CSD) appear in plans and older files as
 * they are; the codes of the 2007 list still found in files (LNC, LNQ, LNK) are kept too.
 */
export type LandUseCode = { name: string; color: string }

export const landUseCodes: Readonly<Record<string, LandUseCode>> = {
  // Housing
  ODT: { name: 'Đất ở tại đô thị', color: '#ffa0ff' },
  ONT: { name: 'Đất ở tại nông thôn', color: '#ffd0ff' },
  OCT: { name: 'Đất ở', color: '#ff78dc' },
  // Trade and production
  TMD: { name: 'Đất thương mại, dịch vụ', color: '#faaaa0' },
  SKC: { name: 'Đất cơ sở sản xuất phi nông nghiệp', color: '#c89682' },
  CSK: { name: 'Đất sản xuất, kinh doanh phi nông nghiệp', color: '#e6826e' },
  SKK: { name: 'Đất khu công nghiệp', color: '#b46e5a' },
  SKN: { name: 'Đất cụm công nghiệp', color: '#d7aa96' },
  SKT: { name: 'Đất khu chế xuất', color: '#a08278' },
  SKS: { name: 'Đất sử dụng cho hoạt động khoáng sản', color: '#877369' },
  SKX: { name: 'Đất sản xuất vật liệu xây dựng, làm đồ gốm', color: '#be8c64' },
  // Transport, water works, energy and other public works
  DGT: { name: 'Đất giao thông', color: '#ffaa32' },
  DTL: { name: 'Đất thuỷ lợi', color: '#78b4f0' },
  DNL: { name: 'Đất công trình năng lượng', color: '#f0dc50' },
  DBV: { name: 'Đất công trình bưu chính, viễn thông', color: '#e6be3c' },
  DCH: { name: 'Đất chợ', color: '#ff8c5a' },
  DRA: { name: 'Đất bãi thải, xử lý chất thải', color: '#a0a064' },
  DCK: { name: 'Đất công trình công cộng khác', color: '#c8aa50' },
  CCC: { name: 'Đất sử dụng vào mục đích công cộng', color: '#ffbe50' },
  DHT: { name: 'Đất phát triển hạ tầng', color: '#dc9150' },
  // Public services
  DVH: { name: 'Đất xây dựng cơ sở văn hoá', color: '#dcb4f0' },
  DYT: { name: 'Đất xây dựng cơ sở y tế', color: '#ff6464' },
  DGD: { name: 'Đất xây dựng cơ sở giáo dục và đào tạo', color: '#b48cd2' },
  DTT: { name: 'Đất xây dựng cơ sở thể dục thể thao', color: '#8cd2a0' },
  DKH: { name: 'Đất xây dựng cơ sở khoa học và công nghệ', color: '#a0a0e6' },
  DXH: { name: 'Đất xây dựng cơ sở dịch vụ xã hội', color: '#e6a0c8' },
  DNG: { name: 'Đất xây dựng cơ sở ngoại giao', color: '#c8c8ff' },
  DTS: { name: 'Đất xây dựng trụ sở của tổ chức sự nghiệp', color: '#c37db9' },
  DSK: { name: 'Đất xây dựng công trình sự nghiệp khác', color: '#c8a5dc' },
  DSN: { name: 'Đất xây dựng công trình sự nghiệp', color: '#a573c3' },
  DSH: { name: 'Đất sinh hoạt cộng đồng', color: '#f0c8aa' },
  DKV: { name: 'Đất khu vui chơi, giải trí công cộng, cây xanh', color: '#aaff80' },
  DDT: { name: 'Đất có di tích lịch sử - văn hoá', color: '#c86496' },
  DDL: { name: 'Đất danh lam thắng cảnh', color: '#78c878' },
  // Offices, defence, security, religion
  TSC: { name: 'Đất xây dựng trụ sở cơ quan', color: '#f087b4' },
  CQP: { name: 'Đất quốc phòng', color: '#c8555a' },
  CAN: { name: 'Đất an ninh', color: '#cd6e78' },
  CDG: { name: 'Đất chuyên dùng', color: '#ffb4be' },
  TON: { name: 'Đất cơ sở tôn giáo', color: '#e196ff' },
  TIN: { name: 'Đất cơ sở tín ngưỡng', color: '#c38cf0' },
  NTD: { name: 'Đất nghĩa trang, nghĩa địa', color: '#d2d2d2' },
  // Water
  SON: { name: 'Đất sông, ngòi, kênh, rạch, suối', color: '#a0ffff' },
  MNC: { name: 'Đất có mặt nước chuyên dùng', color: '#8cdcff' },
  NTS: { name: 'Đất nuôi trồng thuỷ sản', color: '#64c8dc' },
  LMU: { name: 'Đất làm muối', color: '#dcf0ff' },
  // Rice land
  LUA: { name: 'Đất trồng lúa', color: '#ffff3c' },
  LUC: { name: 'Đất chuyên trồng lúa nước', color: '#ffff64' },
  LUK: { name: 'Đất trồng lúa nước còn lại', color: '#ffff96' },
  LUN: { name: 'Đất lúa nương', color: '#ffffc8' },
  // Other crops
  HNK: { name: 'Đất trồng cây hằng năm khác', color: '#e6e6a0' },
  BHK: { name: 'Đất bằng trồng cây hằng năm khác', color: '#e6ebc3' },
  NHK: { name: 'Đất nương rẫy trồng cây hằng năm khác', color: '#d2d282' },
  CLN: { name: 'Đất trồng cây lâu năm', color: '#ffc88c' },
  LNC: { name: 'Đất trồng cây công nghiệp lâu năm', color: '#e6b478' },
  LNQ: { name: 'Đất trồng cây ăn quả lâu năm', color: '#ffd7c3' },
  LNK: { name: 'Đất trồng cây lâu năm khác', color: '#fa9b78' },
  NKH: { name: 'Đất nông nghiệp khác', color: '#c3e19b' },
  NNP: { name: 'Đất nông nghiệp', color: '#d2ffa0' },
  // Forests
  RSX: { name: 'Đất rừng sản xuất', color: '#b4ffb4' },
  RPH: { name: 'Đất rừng phòng hộ', color: '#64dc8c' },
  RDD: { name: 'Đất rừng đặc dụng', color: '#3cb464' },
  // Other and unused
  PNN: { name: 'Đất phi nông nghiệp', color: '#f0c3d7' },
  PNK: { name: 'Đất phi nông nghiệp khác', color: '#c3b4af' },
  CSD: { name: 'Đất chưa sử dụng', color: '#ffffff' },
  BCS: { name: 'Đất bằng chưa sử dụng', color: '#f0ebe1' },
  DCS: { name: 'Đất đồi núi chưa sử dụng', color: '#bed2b9' },
  NCS: { name: 'Núi đá không có rừng cây', color: '#a5aaaa' },
}

/** Residential codes: a parcel used for housing inside a zone planned for anything else is "vướng quy hoạch". */
export const residentialCodes: ReadonlySet<string> = new Set(['ODT', 'ONT', 'OCT'])

/** The name of a code, or the code itself when the list does not know it. */
export const landUseName = (code: string): string => landUseCodes[code]?.name ?? code

/** "ở", "cây lâu năm": what a code adds after "đất" when several are written together. */
function purpose(code: string): string {
  if (residentialCodes.has(code)) return 'ở'
  const name = landUseCodes[code]?.name
  if (!name) return code
  const rest = name.replace(/^Đất\s+/, '').replace(/^(bằng\s+|nương rẫy\s+)?trồng\s+/, '')
  return rest === name ? rest.charAt(0).toLowerCase() + rest.slice(1) : rest
}

const housingFirst = (codes: readonly string[]) => [
  ...codes.filter((c) => residentialCodes.has(c)),
  ...codes.filter((c) => !residentialCodes.has(c)),
]

/**
 * Mixed use as a person says it: `ODT+CLN` is "đất ở kết hợp cây lâu năm", housing named first (the
 * use a mixed parcel is known by), the others in the order given. One code gives its own name.
 */
export function mixedUseName(codes: readonly string[]): string {
  const [first, ...others] = housingFirst(codes)
  if (first === undefined) return ''
  if (others.length === 0) return landUseName(first)
  return `đất ${purpose(first)} kết hợp ${others.map(purpose).join(' và ')}`
}

/**
 * A parcel's purposes on one line: each name with its code, or mixed use written without each part's
 * area (`ODT+CLN`) said as the parcel card says it: "Đất ở kết hợp cây lâu năm (ODT+CLN)".
 */
export function landUseLine(parts: readonly { code: string; name: string; area_m2: number | null }[]): string {
  if (parts.length > 1 && parts.some((u) => u.area_m2 === null)) {
    const codes = parts.map((u) => u.code)
    const name = mixedUseName(codes)
    return `${name.charAt(0).toUpperCase()}${name.slice(1)} (${housingFirst(codes).join('+')})`
  }
  return parts.map((u) => `${u.name} (${u.code})`).join(', ')
}
