import '@mantine/core/styles/Input.css'
import '@mantine/core/styles/PasswordInput.css'
import { useState, type FormEvent } from 'react'
import { Button, PasswordInput, Stack, Title } from '@mantine/core'
import { changePasswordBody } from '#core/contract/auth.ts'
import { authApi } from '../index.ts'
import {
  NewPasswordFields,
  newPasswordErrors,
  passwordToggle,
  serverErrors,
  type FieldErrors,
} from './dialog-parts.tsx'

/** "Đổi mật khẩu": the current password, then the new one twice; the server's toast says how it went. */
export function ChangePasswordForm() {
  const [current, setCurrent] = useState('')
  const [password, setPassword] = useState('')
  const [password2, setPassword2] = useState('')
  const [errors, setErrors] = useState<FieldErrors>({})
  const [busy, setBusy] = useState(false)

  async function submit(e: FormEvent) {
    e.preventDefault()
    const parsed = changePasswordBody.safeParse({ current_password: current, new_password: password })
    const found = newPasswordErrors(parsed, password, password2)
    if (!parsed.success || found.password2) return setErrors(found)
    setErrors({})
    setBusy(true)
    const res = await authApi.changePassword(parsed.data)
    setBusy(false)
    if (!res.ok) return setErrors(serverErrors(res.fieldErrors))
    setCurrent('')
    setPassword('')
    setPassword2('')
  }

  return (
    <form onSubmit={(e) => void submit(e)} noValidate aria-labelledby="qh-change-password">
      <Stack gap="sm">
        <Title order={2} size="h4" id="qh-change-password">
          Đổi mật khẩu
        </Title>
        <PasswordInput
          label="Mật khẩu hiện tại"
          autoComplete="current-password"
          required
          value={current}
          onChange={(e) => setCurrent(e.currentTarget.value)}
          error={errors.current_password}
          visibilityToggleButtonProps={passwordToggle}
          size="md"
        />
        <NewPasswordFields
          label="Mật khẩu mới"
          repeatLabel="Nhập lại mật khẩu mới"
          password={password}
          password2={password2}
          onPassword={setPassword}
          onPassword2={setPassword2}
          error={errors.new_password}
          repeatError={errors.password2}
        />
        <Button type="submit" loading={busy} style={{ alignSelf: 'flex-start' }}>
          Đổi mật khẩu
        </Button>
      </Stack>
    </form>
  )
}
