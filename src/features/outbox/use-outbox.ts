import { useEffect, useState } from 'react'
import { listItems, subscribeOutbox, type OutboxItem } from '#core/outbox/queue.ts'

/** The queued items, newest state, re-read on every change; null while loading. */
export function useOutboxItems(): OutboxItem[] | null {
  const [items, setItems] = useState<OutboxItem[] | null>(null)
  useEffect(() => {
    let alive = true
    const load = () =>
      void listItems().then(
        (rows) => alive && setItems(rows),
        (err: unknown) => {
          console.warn('outbox unavailable', err)
          if (alive) setItems([])
        },
      )
    load()
    const stop = subscribeOutbox(load)
    return () => {
      alive = false
      stop()
    }
  }, [])
  return items
}
