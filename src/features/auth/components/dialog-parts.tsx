import { Modal, PasswordInput } from '@mantine/core'
import type { ReactNode } from 'react'
import type { z } from 'zod/mini'

export type FieldErrors = Record<string, string | undefined>

/** Field errors from a zod check, first message per field. */
export function zodErrors(error: z.core.$ZodError): FieldErrors {
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

/** The field errors of a form with a new password typed twice: the zod check's, and the repeat's. */
export function newPasswordErrors(
  parsed: z.util.SafeParseResult<unknown>,
  password: string,
  password2: string,
): FieldErrors {
  const found = parsed.success ? {} : zodErrors(parsed.error)
  if (password2 !== password) found.password2 = 'Mật khẩu nhập lại không khớp.'
  return found
}

/** A new password and its repeat, as registering and resetting ask for them. */
export function NewPasswordFields(props: {
  label: string
  repeatLabel: string
  password: string
  password2: string
  onPassword: (v: string) => void
  onPassword2: (v: string) => void
  error: string | undefined
  repeatError: string | undefined
}) {
  return (
    <>
      <PasswordInput
        label={props.label}
        description="8–128 ký tự"
        autoComplete="new-password"
        required
        value={props.password}
        onChange={(e) => props.onPassword(e.currentTarget.value)}
        error={props.error}
        visibilityToggleButtonProps={passwordToggle}
        size="md"
      />
      <PasswordInput
        label={props.repeatLabel}
        autoComplete="new-password"
        required
        value={props.password2}
        onChange={(e) => props.onPassword2(e.currentTarget.value)}
        error={props.repeatError}
        visibilityToggleButtonProps={passwordToggle}
        size="md"
      />
    </>
  )
}

export function Dialog(props: { title: string; opened: boolean; onClose: () => void; children: ReactNode }) {
  return (
    <Modal
      opened={props.opened}
      onClose={props.onClose}
      title={props.title}
      centered
      size="md"
      closeButtonProps={{ 'aria-label': 'Đóng' }}
    >
      {props.children}
    </Modal>
  )
}
