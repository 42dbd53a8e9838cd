import { useId } from 'react'
import { CloseButton } from '@mantine/core'
import type { PositionSnapshot } from '../../position/index.ts'
import { GpsSettings } from '../../position/pages.ts'

/** The GPS panel over the map: the position source and receiver, antenna height and accuracy gate. */
export default function GpsPanel({ position, onClose }: { position: PositionSnapshot; onClose: () => void }) {
  const id = useId()
  return (
    <section className="qh-layers qh-floating qh-panel" aria-labelledby={`${id}-h`} data-testid="gps-panel">
      <CloseButton
        size="lg"
        aria-label="Đóng bảng nguồn định vị"
        onClick={onClose}
        style={{ position: 'absolute', top: 4, right: 4 }}
      />
      <h2 id={`${id}-h`}>Nguồn định vị</h2>
      <GpsSettings position={position} withStatus />
    </section>
  )
}
