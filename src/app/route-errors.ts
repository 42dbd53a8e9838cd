import { SearchParamError } from '@tanstack/react-router'

export type ErrorPageInfo = { status: number; title: string; message: string }

export const errorTitle = (status: number) => (status === 404 ? 'Page Not Found' : 'Internal Server Error')

/** The 404 page for a path no route matches. */
export function notFoundInfo(path: string): ErrorPageInfo {
  return { status: 404, title: errorTitle(404), message: `Page not found: ${path}` }
}

function isValidationError(error: unknown): boolean {
  // TanStack Router throws this when validateSearch rejects the URL.
  return error instanceof SearchParamError
}

/** What the error page shows for an error thrown while matching or rendering a route. */
export function routeErrorInfo(error: unknown, path: string): ErrorPageInfo {
  if (isValidationError(error)) return { status: 404, title: errorTitle(404), message: `Page Not Found: ${path}` }
  const raw = typeof error === 'object' && error !== null ? (error as { status?: unknown }).status : undefined
  const status = typeof raw === 'number' && raw >= 400 && raw < 600 ? raw : 500
  return {
    status,
    title: errorTitle(status),
    message: error instanceof Error && status !== 500 ? error.message : 'Đã có lỗi xảy ra khi hiển thị trang này.',
  }
}
