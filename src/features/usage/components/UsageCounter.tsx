import { useEffect, useRef } from 'react'
import { useAtomValue, useStore } from 'jotai'
import { Badge } from '@mantine/core'
import { pushToast } from '../../notifications/index.ts'
import { useOnline } from '../../../lib/use-online.ts'
import { formatResetTime } from '../../../lib/errors.ts'
import { isUsageStale, lowUsageText, remaining, usageAtom } from '../atoms.ts'

/** "còn N/M lượt hôm nay"; marked when the number may be old (offline, or learnt before the reset). */
export function UsageCounter({ loggedIn }: { loggedIn: boolean }) {
  const usage = useAtomValue(usageAtom)
  const online = useOnline()
  const store = useStore()
  const low = lowUsageText(usage, formatResetTime)
  // Said once as the count drops into the last few (not for a count merely loaded from the device).
  const seen = useRef<number | null>(null)
  useEffect(() => {
    const before = seen.current
    seen.current = usage.count
    if (low && before !== null && usage.count > before) pushToast(store, 'warning', low)
  }, [usage.count, low, store])
  if (!loggedIn || usage.limit === 0) return null
  const stale = !online || isUsageStale(usage)
  const text = `còn ${remaining(usage)}/${usage.limit} lượt hôm nay`
  const [shown, today] = [`còn ${remaining(usage)}/${usage.limit} lượt`, ' hôm nay']
  const note = !online
    ? 'Đang ngoại tuyến: số lượt lần cuối biết được'
    : stale
      ? 'Số lượt có thể đã cũ'
      : (low ?? 'Số lượt tra cứu còn lại hôm nay')
  return (
    <Badge
      size="lg"
      variant={stale ? 'outline' : 'light'}
      color={stale ? 'gray' : remaining(usage) === 0 ? 'red' : low ? 'orange' : 'sky'}
      aria-label={`${text}${stale ? ` (${!online ? 'ngoại tuyến' : 'có thể đã cũ'})` : low ? `. ${low}` : ''}`}
      data-testid="usage-counter"
      className="usage-counter"
      title={note}
      style={{ textTransform: 'none', fontWeight: 600 }}
    >
      {shown}
      {/* A phone's header has no room for these words: the count is read whole, not cut short. */}
      <span className="usage-today">{today}</span>
      {stale ? (!online ? ' · ngoại tuyến' : ' · cũ') : ''}
    </Badge>
  )
}
