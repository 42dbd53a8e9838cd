import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react'
import { CloseButton } from '@mantine/core'

type Snap = 'peek' | 'full'

/** Sheet heights as shares of the map's height: a glance, and almost everything. */
const PEEK_SHARE = 0.42
const PEEK_MAX_PX = 380
const FULL_SHARE = 0.9
/** A drag shorter than this is a press on the handle, which toggles the sheet. */
const CLICK_PX = 6

/** Sheet heights for a map this tall; a short content (a loading line) peeks only as high as it needs. */
export function sheetHeights(containerPx: number, contentPx = Infinity): Record<Snap, number> {
  const full = Math.round(containerPx * FULL_SHARE)
  return {
    peek: Math.round(Math.min(containerPx * PEEK_SHARE, PEEK_MAX_PX, contentPx)),
    full: Math.max(full, Math.min(contentPx, full)),
  }
}

/** Where a released drag settles: the nearer height, or closed when pulled well below the glance. */
export function snapAfterDrag(heightPx: number, heights: Record<Snap, number>): Snap | 'closed' {
  if (heightPx < heights.peek * 0.55) return 'closed'
  return heightPx > (heights.peek + heights.full) / 2 ? 'full' : 'peek'
}

/**
 * The frame the result lives in: a bottom sheet on phones (drag the handle to expand, collapse or
 * dismiss; press it to toggle) and a side panel on desktops. Reports how much of the map it covers so
 * the map keeps the chosen point in view.
 */
export function ResultPanel(props: {
  mode: 'sheet' | 'side'
  label: string
  onClose: () => void
  onCover: (px: number) => void
  children: ReactNode
}) {
  const { mode, onCover, onClose } = props
  const ref = useRef<HTMLDivElement>(null)
  const [snap, setSnap] = useState<Snap>('peek')
  const [containerPx, setContainerPx] = useState(0)
  const [contentPx, setContentPx] = useState(Infinity)
  const contentRef = useRef<HTMLDivElement>(null)
  const [drag, setDrag] = useState<{ startY: number; startH: number; h: number } | null>(null)

  useLayoutEffect(() => {
    const parent = ref.current?.parentElement
    if (!parent) return
    const measure = () => setContainerPx(parent.clientHeight)
    measure()
    const ro = new ResizeObserver(measure)
    ro.observe(parent)
    return () => ro.disconnect()
  }, [])

  useLayoutEffect(() => {
    const content = contentRef.current
    if (!content) return
    // The handle and the padding above and below the content.
    const measure = () => setContentPx(content.scrollHeight + 40)
    measure()
    const ro = new ResizeObserver(measure)
    ro.observe(content)
    return () => ro.disconnect()
  }, [mode])

  const heights = sheetHeights(containerPx, contentPx)
  const height = drag ? drag.h : heights[snap]

  useEffect(() => {
    if (mode === 'side') onCover(0)
    else if (!drag) onCover(height)
  }, [mode, height, drag, onCover])
  useEffect(() => () => onCover(0), [onCover])

  const close = (
    <CloseButton
      size="xl"
      aria-label="Đóng kết quả"
      onClick={onClose}
      style={{ position: 'absolute', top: mode === 'side' ? 8 : 4, right: 8, zIndex: 1 }}
    />
  )

  if (mode === 'side') {
    return (
      <aside ref={ref} className="qh-side" aria-label={props.label}>
        {close}
        <div className="qh-result-scroll" style={{ paddingTop: 16 }}>
          {props.children}
        </div>
      </aside>
    )
  }

  const onPointerDown = (e: React.PointerEvent<HTMLButtonElement>) => {
    e.currentTarget.setPointerCapture(e.pointerId)
    setDrag({ startY: e.clientY, startH: height, h: height })
  }
  const onPointerMove = (e: React.PointerEvent<HTMLButtonElement>) => {
    if (!drag) return
    const h = Math.max(40, Math.min(heights.full, drag.startH + (drag.startY - e.clientY)))
    setDrag({ ...drag, h })
  }
  const onPointerUp = (e: React.PointerEvent<HTMLButtonElement>) => {
    if (!drag) return
    const moved = Math.abs(e.clientY - drag.startY)
    setDrag(null)
    if (moved < CLICK_PX) {
      setSnap((s) => (s === 'peek' ? 'full' : 'peek'))
      return
    }
    const next = snapAfterDrag(drag.h, heights)
    if (next === 'closed') onClose()
    else setSnap(next)
  }

  return (
    <section
      ref={ref}
      className="qh-sheet"
      aria-label={props.label}
      style={{ height }}
      data-dragging={drag !== null}
      data-snap={snap}
      data-testid="result-sheet"
    >
      <button
        type="button"
        className="qh-sheet-handle"
        aria-expanded={snap === 'full'}
        aria-label={snap === 'full' ? 'Thu gọn kết quả' : 'Mở rộng kết quả'}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={() => setDrag(null)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' || e.key === ' ') {
            e.preventDefault()
            setSnap((s) => (s === 'peek' ? 'full' : 'peek'))
          }
        }}
      />
      {close}
      <div className="qh-result-scroll">
        <div ref={contentRef}>{props.children}</div>
      </div>
    </section>
  )
}
