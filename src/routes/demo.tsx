import { createFileRoute } from '@tanstack/react-router'
import { mapSearch } from '../features/map/url-state.ts'
import { DemoPage } from '../features/map/DemoPage.tsx'

export const Route = createFileRoute('/demo')({
  validateSearch: (search) => mapSearch.parse(search),
  component: DemoPage,
})
