import './banner.css'
import { useEffect, useState } from 'react'
import { ActionIcon } from '@mantine/core'
import { Link } from '@tanstack/react-router'
import { IconCloudDownload } from '@tabler/icons-react'

/** Unsent photos, counted without loading the outbox code into the first screen. */
function useUnsentCount(): number {
  const [count, setCount] = useState(0)
  useEffect(() => {
    let alive = true
    let stop = () => {}
    void Promise.all([import('#core/outbox/queue.ts'), import('#core/outbox/runner.ts')]).then(([queue, runner]) => {
      if (!alive) return
      const load = () =>
        void queue
          .listItems()
          .then(
            (items) =>
              alive && setCount(runner.unsent(items).length + items.filter((i) => i.status === 'failed').length),
          )
      load()
      stop = queue.subscribeOutbox(load)
    })
    return () => {
      alive = false
      stop()
    }
  }, [])
  return count
}

/**
 * The header's way to the offline screen (saved areas, photo queue, history), with the unsent count. On
 * phones it steps aside while no photo waits, so the usage counter keeps its full text on a 360 px screen;
 * the map's save panel links there, and so does the offline banner, which is on screen whenever the app is offline.
 */
export function OfflineLink() {
  const count = useUnsentCount()
  const label =
    count > 0
      ? `Dữ liệu ngoại tuyến: ${count} ảnh chưa gửi`
      : 'Dữ liệu ngoại tuyến: khu vực đã lưu, ảnh chờ gửi, lịch sử'
  return (
    <ActionIcon
      component={Link}
      to="/offline"
      variant="subtle"
      size={44}
      aria-label={label}
      title={label}
      data-testid="offline-link"
      className="offline-link"
      data-idle={count === 0 ? true : undefined}
    >
      <IconCloudDownload size={24} aria-hidden />
      {count > 0 ? (
        <span className="offline-link-count" aria-hidden>
          {count}
        </span>
      ) : null}
    </ActionIcon>
  )
}
