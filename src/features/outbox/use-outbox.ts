import { useEffect, useState } from 'react'
import { listItems, subscribeOutbox, type OutboxItem } from '#core/outbox/queue.ts'
import { useStore } from 'jotai'
import { deviceStorageTexts } from '#core/messages.ts'
import { pushToast } from '../notifications/index.ts'

/** The queued items, newest state, re-read on every change; null while loading. */
export function useOutboxItems(): OutboxItem[] | null {
  const [items, setItems] = useState<OutboxItem[] | null>(null)
  const store = useStore()
  useEffect(() => {
    let alive = true
    const load = () =>
      void listItems().then(
        (rows) => alive && setItems(rows),
        () => {
          pushToast(store, 'warning', deviceStorageTexts.OUTBOX_UNAVAILABLE)
          if (alive) setItems([])
        },
      )
    load()
    const stop = subscribeOutbox(load)
    return () => {
      alive = false
      stop()
    }
  }, [store])
  return items
}
