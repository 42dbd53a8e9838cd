import { createFileRoute } from '@tanstack/react-router'
import { LandingPage } from '../features/landing/index.ts'

export const Route = createFileRoute('/')({
  component: LandingPage,
})
