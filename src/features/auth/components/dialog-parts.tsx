import { Modal } from '@mantine/core'
import type { ReactNode } from 'react'
import type { z } from 'zod'

export type FieldErrors = Record<string, string | undefined>

/** Field errors from a zod check, first message per field. */
export function zodErrors(error: z.ZodError): FieldErrors {
  const out: FieldErrors = {}
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? '')
    out[key] ??= issue.message
  }
  return out
}

/** Field errors from the server's `errors` object, first message per field. */
export function serverErrors(fieldErrors: Record<string, string[]>): FieldErrors {
  return Object.fromEntries(Object.entries(fieldErrors).map(([k, v]) => [k, v[0]]))
}

export const passwordToggle = { 'aria-label': 'Hiện hoặc ẩn mật khẩu' }

export function Dialog(props: { title: string; opened: boolean; onClose: () => void; children: ReactNode }) {
  return (
    <Modal opened={props.opened} onClose={props.onClose} title={props.title} centered size="md" closeButtonProps={{ 'aria-label': 'Đóng' }}>
      {props.children}
    </Modal>
  )
}
