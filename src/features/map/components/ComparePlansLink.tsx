import { Button } from '@mantine/core'
import { Link } from '@tanstack/react-router'
import { IconGitCompare } from '@tabler/icons-react'
import type { PlanningData } from '#core/contract/lookups.ts'
import { bboxParam } from '../../compare/index.ts'
import { planCount } from '../selection.ts'

/** Half the side of the box compared around a point without a parcel, in degrees (≈ 110 m). */
const AROUND_DEG = 0.001

/**
 * "So sánh" from the card when two or more plans cover the point: within the parcel, or in a small box
 * around the point when the plans came without a cadastre. The comparison is not counted.
 */
export function ComparePlansLink({ result }: { result: PlanningData }) {
  if (planCount(result.zones) < 2) return null
  const { lat, lng } = result.location
  const search = result.parcel
    ? { lat, lng }
    : { bbox: bboxParam([lng - AROUND_DEG, lat - AROUND_DEG, lng + AROUND_DEG, lat + AROUND_DEG]) }
  const versions = result.zones.some((z) => z.replaced_by)
  return (
    <Button
      variant="light"
      mt="xs"
      renderRoot={(props) => <Link to="/compare" search={search} {...props} />}
      leftSection={<IconGitCompare size={20} aria-hidden />}
      data-testid="compare-plans"
    >
      {versions ? 'So sánh với đồ án cũ' : 'So sánh các đồ án'}
    </Button>
  )
}
