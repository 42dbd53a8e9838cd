import { Button, Text } from '@mantine/core'
import { Link } from '@tanstack/react-router'
import { IconGitCompare } from '@tabler/icons-react'
import { MAX_COMPARE_AREA_KM2 } from '#core/limits.ts'
import { bboxParam, comparableArea } from '../../compare/index.ts'
import type { MapController } from '../engine/map-controller.ts'
import { createBoxTools } from '../offline/map-box.ts'
import type { LatLngZoom } from '../../../lib/map-url.ts'

/** "So sánh quy hoạch khu vực này": the plans of the area on screen compared, once it is zoomed in enough. `view` re-renders it as the map moves. */
export function CompareAreaLink({ ctrl }: { ctrl: MapController | null; view: LatLngZoom }) {
  if (!ctrl) return null
  const box = createBoxTools(ctrl).viewBbox()
  if (!comparableArea(box))
    return (
      <Text size="xs" c="dimmed" mt={6} data-testid="compare-area-zoom">
        Phóng to bản đồ (khu vực tối đa {MAX_COMPARE_AREA_KM2} km²) để so sánh các đồ án quy hoạch ở đây.
      </Text>
    )
  return (
    <Button
      variant="light"
      size="sm"
      mt={6}
      renderRoot={(props) => <Link to="/compare" search={{ bbox: bboxParam(box) }} {...props} />}
      leftSection={<IconGitCompare size={18} aria-hidden />}
      data-testid="compare-area"
    >
      So sánh quy hoạch khu vực này
    </Button>
  )
}
