import { useAtomValue } from 'jotai'
import { Badge } from '@mantine/core'
import { useOnline } from '../../../lib/use-online.ts'
import { isUsageStale, remaining, usageAtom } from '../atoms.ts'

/** "còn N/M lượt hôm nay"; marked when the number may be old (offline, or learnt before the reset). */
export function UsageCounter({ loggedIn }: { loggedIn: boolean }) {
  const usage = useAtomValue(usageAtom)
  const online = useOnline()
  if (!loggedIn || usage.limit === 0) return null
  const stale = !online || isUsageStale(usage)
  const text = `còn ${remaining(usage)}/${usage.limit} lượt hôm nay`
  const note = !online ? 'Đang ngoại tuyến: số lượt lần cuối biết được' : stale ? 'Số lượt có thể đã cũ' : 'Số lượt tra cứu còn lại hôm nay'
  return (
    <Badge
        size="lg"
        variant={stale ? 'outline' : 'light'}
        color={stale ? 'gray' : remaining(usage) === 0 ? 'red' : 'sky'}
        aria-label={`${text}${stale ? ` (${!online ? 'ngoại tuyến' : 'có thể đã cũ'})` : ''}`}
        data-testid="usage-counter"
        className="usage-counter"
        title={note}
        style={{ textTransform: 'none', fontWeight: 600 }}
      >
        {text}
        {stale ? (!online ? ' · ngoại tuyến' : ' · cũ') : ''}
      </Badge>
  )
}
