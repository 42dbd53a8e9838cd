import { useRouterState, type ErrorComponentProps } from '@tanstack/react-router'
import { notFoundInfo, routeErrorInfo } from './route-errors.ts'
import { chunkLoadFailed, isChunkLoadError } from '../features/update/shell.ts'
import { ErrorPage } from './ErrorPage.tsx'

function useHref(): string {
  return useRouterState({ select: (s) => s.location.href })
}

export function NotFoundPage() {
  const pathname = useRouterState({ select: (s) => s.location.pathname })
  return <ErrorPage info={notFoundInfo(pathname)} detail="Trang bạn tìm không có. Hãy kiểm tra lại đường dẫn." />
}

export function RouteErrorPage({ error }: ErrorComponentProps) {
  const href = useHref()
  const info = routeErrorInfo(error, href)
  if (info.status === 500) console.error(error)
  const chunk = chunkLoadFailed() || isChunkLoadError(error)
  return (
    <ErrorPage
      info={info}
      detail={
        chunk ? 'Không tải được phần này của ứng dụng (có thể vừa có phiên bản mới hoặc mất kết nối).' : undefined
      }
      onRetry={info.status === 404 ? undefined : () => location.reload()}
    />
  )
}
