import { z } from 'zod'
import {
  forgotPasswordBody,
  loginBody,
  loginData,
  meData,
  registerBody,
  registerData,
  resetPasswordBody,
  usageData,
} from '#core/contract/auth.ts'
import {
  latLngQuery,
  parcelsData,
  parcelsQuery,
  place,
  planningData,
  searchData,
  searchQuery,
  uploadData,
  valuationBody,
  valuationData,
} from '#core/contract/lookups.ts'
import { compareData, planCompareQuery } from '#core/contract/plans.ts'
import { buildInfo, healthData } from '#core/contract/system.ts'
import { overlayList, tileJson } from '#core/contract/tiles.ts'
import { packQuery } from '../tiles/pack.ts'

/** How an endpoint answers: the envelope around `data`, or a body of its own (tiles, TileJSON, builds). */
export type Answer = { envelope: z.core.$ZodType } | { json: z.core.$ZodType } | { binary: string }

export type RouteSpec = {
  method: 'get' | 'post' | 'delete'
  /** OpenAPI path, with {name} for path parameters. */
  path: string
  summary: string
  tag: 'auth' | 'lookups' | 'uploads' | 'tiles' | 'system'
  bearer?: boolean
  /** Counted against the daily lookup limit (meta.usage on the answer). */
  counted?: boolean
  query?: z.core.$ZodType
  pathParams?: Record<string, string>
  body?: z.core.$ZodType
  multipart?: boolean
  answer: Answer
  /** Envelope codes this route answers besides Ok (every /api route may also answer InternalServerError and ServiceUnavailable). */
  codes: string[]
}

const tile = { z: 'Mức phóng (zoom)', x: 'Cột ô' }

/**
 * Every route the server registers, described with the same zod schemas it validates with. The
 * OpenAPI document is generated from this list, and a test checks that the list and the app's own
 * routes are the same set, so a route cannot be added without its description.
 */
export const routeSpecs: RouteSpec[] = [
  {
    method: 'get',
    path: '/api/health',
    summary: 'Tình trạng máy chủ và cơ sở dữ liệu',
    tag: 'system',
    answer: { envelope: healthData },
    codes: [],
  },
  {
    method: 'get',
    path: '/api/openapi.json',
    summary: 'Tài liệu OpenAPI 3.1 này',
    tag: 'system',
    answer: { json: z.object({ openapi: z.string() }).loose() },
    codes: [],
  },
  {
    method: 'get',
    path: '/api/docs',
    summary: 'Tài liệu API dạng trang HTML',
    tag: 'system',
    answer: { binary: 'text/html' },
    codes: [],
  },
  {
    method: 'post',
    path: '/api/auth/register',
    summary: 'Đăng ký tài khoản',
    tag: 'auth',
    body: registerBody,
    answer: { envelope: registerData },
    codes: ['BadRequest', 'Conflict', 'TooManyRequests'],
  },
  {
    method: 'post',
    path: '/api/auth/login',
    summary: 'Đăng nhập, nhận access token',
    tag: 'auth',
    body: loginBody,
    answer: { envelope: loginData },
    codes: ['BadRequest', 'Unauthorized', 'TooManyRequests'],
  },
  {
    method: 'post',
    path: '/api/auth/logout',
    summary: 'Đăng xuất: token ngừng hoạt động',
    tag: 'auth',
    bearer: true,
    answer: { envelope: z.null() },
    codes: ['Unauthorized'],
  },
  {
    method: 'post',
    path: '/api/auth/forgotPassword',
    summary: 'Gửi mã đặt lại mật khẩu qua e-mail',
    tag: 'auth',
    body: forgotPasswordBody,
    answer: { envelope: z.null() },
    codes: ['BadRequest', 'TooManyRequests'],
  },
  {
    method: 'post',
    path: '/api/auth/resetPassword',
    summary: 'Đặt lại mật khẩu bằng mã',
    tag: 'auth',
    body: resetPasswordBody,
    answer: { envelope: z.null() },
    codes: ['BadRequest', 'Unauthorized', 'TooManyRequests'],
  },
  {
    method: 'get',
    path: '/api/auth/usage',
    summary: 'Số lượt tra cứu đã dùng hôm nay',
    tag: 'auth',
    bearer: true,
    answer: { envelope: usageData },
    codes: ['Unauthorized'],
  },
  {
    method: 'get',
    path: '/api/auth/me',
    summary: 'Thông tin tài khoản',
    tag: 'auth',
    bearer: true,
    answer: { envelope: meData },
    codes: ['Unauthorized'],
  },
  {
    method: 'get',
    path: '/api/planning',
    summary: 'Tra cứu quy hoạch tại một điểm (tính lượt)',
    tag: 'lookups',
    bearer: true,
    counted: true,
    query: latLngQuery,
    answer: { envelope: planningData },
    codes: ['LocationIncorrect', 'Unauthorized', 'NotFound', 'MaxUsage'],
  },
  {
    method: 'post',
    path: '/api/valuation',
    summary: 'Định giá thửa đất tại một điểm (tính lượt)',
    tag: 'lookups',
    bearer: true,
    counted: true,
    body: valuationBody,
    answer: { envelope: valuationData },
    codes: ['BadRequest', 'Unauthorized', 'Forbidden', 'NotFound', 'MaxUsage'],
  },
  {
    method: 'get',
    path: '/api/search',
    summary: 'Tìm địa chỉ, đường, phường, tờ/thửa',
    tag: 'lookups',
    bearer: true,
    query: searchQuery,
    answer: { envelope: searchData },
    codes: ['BadRequest', 'Unauthorized'],
  },
  {
    method: 'get',
    path: '/api/places/at',
    summary: 'Phường/xã và tỉnh/thành phố tại một điểm, hôm nay và trước 1/7/2025 (không tính lượt)',
    tag: 'lookups',
    bearer: true,
    query: latLngQuery,
    answer: { envelope: place },
    codes: ['LocationIncorrect', 'NotFound', 'Unauthorized'],
  },
  {
    method: 'get',
    path: '/api/parcels',
    summary: 'Vị trí các thửa đất theo số tờ, số thửa (không tính lượt; thông tin thửa có qua tra cứu tại điểm đó)',
    tag: 'lookups',
    bearer: true,
    query: parcelsQuery,
    answer: { envelope: parcelsData },
    codes: ['BadRequest', 'Unauthorized', 'NotFound'],
  },
  {
    method: 'get',
    path: '/api/plans/compare',
    summary: 'So sánh hai phiên bản đồ án quy hoạch trong một thửa (lat, lng) hoặc một khu vực (bbox) (tính lượt)',
    tag: 'lookups',
    bearer: true,
    counted: true,
    query: planCompareQuery,
    answer: { envelope: compareData },
    codes: ['BadRequest', 'Unauthorized', 'NotFound', 'MaxUsage'],
  },
  {
    method: 'post',
    path: '/api/uploads',
    summary: 'Tải lên 1–4 ảnh (multipart/form-data, trường images)',
    tag: 'uploads',
    bearer: true,
    multipart: true,
    answer: { envelope: uploadData },
    codes: ['BadRequest', 'Unauthorized', 'MaxFile', 'UnsupportedMedia', 'Conflict', 'TooManyRequests'],
  },
  {
    method: 'get',
    path: '/api/uploads/{id}',
    summary: 'Ảnh đã tải lên (chỉ chủ sở hữu)',
    tag: 'uploads',
    bearer: true,
    pathParams: { id: 'Mã ảnh' },
    answer: { binary: 'image/*' },
    codes: ['Unauthorized', 'NotFound'],
  },
  {
    method: 'get',
    path: '/api/uploads/{id}/thumb',
    summary: 'Ảnh thu nhỏ (chỉ chủ sở hữu)',
    tag: 'uploads',
    bearer: true,
    pathParams: { id: 'Mã ảnh' },
    answer: { binary: 'image/*' },
    codes: ['Unauthorized', 'NotFound'],
  },
  {
    method: 'delete',
    path: '/api/uploads/{id}',
    summary: 'Xoá ảnh đã tải lên (chỉ chủ sở hữu)',
    tag: 'uploads',
    bearer: true,
    pathParams: { id: 'Mã ảnh' },
    answer: { envelope: z.null() },
    codes: ['Unauthorized', 'NotFound'],
  },
  {
    method: 'get',
    path: '/tiles/pack',
    summary: 'Nhiều ô vector trong một câu trả lời, để lưu một khu vực',
    tag: 'tiles',
    query: packQuery,
    answer: { binary: 'application/octet-stream' },
    codes: ['BadRequest'],
  },
  {
    method: 'get',
    path: '/tiles/overlays.json',
    summary: 'Danh sách bản đồ quy hoạch dạng ảnh (TileJSON 3.0)',
    tag: 'tiles',
    answer: { json: overlayList },
    codes: [],
  },
  {
    method: 'get',
    path: '/tiles/raster/{id}/{z}/{x}/{file}',
    summary: 'Một ô ảnh của bản đồ quy hoạch dạng ảnh ({y}.png hoặc {y}.webp); 204 ngoài phạm vi',
    tag: 'tiles',
    pathParams: { id: 'Mã bản đồ', ...tile, file: '{y}.png hoặc {y}.webp' },
    answer: { binary: 'image/png' },
    codes: ['NotFound', 'BadRequest'],
  },
  {
    method: 'get',
    path: '/tiles/{name}',
    summary: 'TileJSON 3.0 của một lớp ({layer}.json: basemap, planning, parcels)',
    tag: 'tiles',
    pathParams: { name: '{layer}.json' },
    answer: { json: tileJson },
    codes: ['NotFound'],
  },
  {
    method: 'get',
    path: '/tiles/{layer}/{z}/{x}/{file}',
    summary: 'Một ô vector Mapbox ({y}.pbf); 204 khi ô trống',
    tag: 'tiles',
    pathParams: { layer: 'basemap, planning hoặc parcels', ...tile, file: '{y}.pbf' },
    answer: { binary: 'application/vnd.mapbox-vector-tile' },
    codes: ['NotFound', 'BadRequest'],
  },
  {
    method: 'get',
    path: '/builds/latest.json',
    summary: 'Bản dựng đang chạy',
    tag: 'system',
    answer: { json: buildInfo },
    codes: [],
  },
  {
    method: 'get',
    path: '/builds/meta/{file}',
    summary: 'Thông tin một bản dựng ({id}.json)',
    tag: 'system',
    pathParams: { file: '{id}.json' },
    answer: { json: buildInfo },
    codes: [],
  },
]
