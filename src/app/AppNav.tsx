import { Link } from '@tanstack/react-router'
import { IconCalculator, IconCloudDownload, IconMap2, IconUserCircle } from '@tabler/icons-react'

/** The app's four places, the same on every screen size. */
const places = [
  { to: '/demo', label: 'Bản đồ', Icon: IconMap2 },
  { to: '/valuation', label: 'Định giá', Icon: IconCalculator },
  { to: '/offline', label: 'Ngoại tuyến', Icon: IconCloudDownload },
  { to: '/account', label: 'Tài khoản', Icon: IconUserCircle },
] as const

/**
 * Main navigation: in the header on wide screens, a bar along the bottom on phones (where a thumb
 * reaches); the current place is marked for sight (colour, bar) and for screen readers (aria-current).
 * Both are rendered; CSS shows one, so the other is out of the accessibility tree too.
 */
export function AppNav({ placement }: { placement: 'top' | 'bottom' }) {
  return (
    <nav aria-label="Điều hướng chính" className={`app-nav app-nav-${placement}`} data-testid={`app-nav-${placement}`}>
      <ul>
        {places.map(({ to, label, Icon }) => (
          <li key={to}>
            <Link
              to={to}
              className="app-nav-link"
              activeProps={{ 'aria-current': 'page', className: 'active' }}
              activeOptions={{ includeSearch: false }}
            >
              <Icon size={placement === 'bottom' ? 24 : 20} aria-hidden />
              <span>{label}</span>
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  )
}
