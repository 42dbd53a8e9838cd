import { useAtomValue } from 'jotai'
import { isLoadingAtom } from '../lib/api/atoms.ts'

/** A thin bar at the very top while requests run; it never takes clicks or drags away from the page. */
export function LoadingBar() {
  const loading = useAtomValue(isLoadingAtom)
  if (!loading) return null
  return <div className="loading-bar" role="progressbar" aria-label="Đang xử lý" />
}
