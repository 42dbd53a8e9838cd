import type { Fix } from './fix.ts'

/** A position from the phone's own location service, as a Fix. */
export function phoneFix(p: GeolocationPosition): Fix {
  const h = p.coords.heading
  const speed = p.coords.speed
  return {
    lat: p.coords.latitude,
    lng: p.coords.longitude,
    accuracyM: Number.isFinite(p.coords.accuracy) ? p.coords.accuracy : null,
    accuracySource: 'device',
    quality: 'phone',
    satellites: null,
    hdop: null,
    altitudeM: p.coords.altitude,
    headingDeg: h !== null && Number.isFinite(h) && (speed ?? 1) > 0 ? h : null,
    speedMps: speed,
    at: p.timestamp,
  }
}

/** Why the phone gives no position, said plainly in Vietnamese with what to do about it. */
export function phoneErrorMessage(code: number, secureContext: boolean): string {
  // GeolocationPositionError: 1 PERMISSION_DENIED, 2 POSITION_UNAVAILABLE, 3 TIMEOUT.
  switch (code) {
    case 1:
      return secureContext
        ? 'Trình duyệt đang chặn quyền truy cập vị trí của trang này. Hãy bấm vào biểu tượng ổ khoá cạnh địa chỉ trang (hoặc vào Cài đặt > Quyền riêng tư > Vị trí), cho phép "Vị trí", rồi bấm nút định vị lại.'
        : 'Trình duyệt chỉ cho phép định vị trên kết nối an toàn (địa chỉ bắt đầu bằng https://). Hãy mở trang bằng https rồi thử lại.'
    case 3:
      return 'Chưa nhận được vị trí sau một lúc chờ. Tín hiệu GPS có thể yếu; ứng dụng vẫn đang thử tiếp.'
    default:
      return 'Không xác định được vị trí: thiết bị chưa bắt được tín hiệu GPS hoặc mạng. Hãy bật dịch vụ vị trí của máy, ra chỗ thoáng rồi thử lại.'
  }
}

export const NO_GEOLOCATION = 'Trình duyệt này không hỗ trợ định vị.'
