import { createFileRoute } from '@tanstack/react-router'
import { ColorModeToggle } from '../app/ColorModeToggle.tsx'
import { AccountPage } from '../features/auth/pages.ts'

export const Route = createFileRoute('/account')({
  component: () => <AccountPage settings={<ColorModeToggle />} />,
})
