import './banner.css'
import { Link } from '@tanstack/react-router'
import { IconWifiOff } from '@tabler/icons-react'
import { useOnline } from '../../../lib/use-online.ts'

/**
 * Says, on every screen, that the app is offline and what that means: what is shown is stored on this
 * device, lookups that count wait for the connection, photos wait in the queue.
 */
export function OfflineBanner() {
  const online = useOnline()
  if (online) return null
  return (
    <div className="offline-banner" role="status" data-testid="offline-banner">
      <IconWifiOff size={18} aria-hidden />
      <span>
        <b>Đang ngoại tuyến:</b> dữ liệu hiển thị là bản đã lưu trên máy
        <span className="offline-banner-more">; ảnh mới sẽ được gửi khi có mạng</span>.{' '}
        <Link to="/offline">Dữ liệu đã lưu</Link>
      </span>
    </div>
  )
}
