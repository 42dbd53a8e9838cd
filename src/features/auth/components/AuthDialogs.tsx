import '@mantine/core/styles/ModalBase.css'
import '@mantine/core/styles/Modal.css'
import '@mantine/core/styles/Overlay.css'
import '@mantine/core/styles/Input.css'
import '@mantine/core/styles/PasswordInput.css'
import { useState, type FormEvent } from 'react'
import { useAtom, useSetAtom } from 'jotai'
import { Anchor, Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core'
import { forgotPasswordBody, loginBody, resetPasswordBody } from '#core/contract/auth.ts'
import { api } from '../../../lib/api/index.ts'
import { useUnsavedWork } from '../../update/index.ts'
import { authDialogAtom, lastEmailAtom, sessionAtom } from '../atoms.ts'
import { authApi } from '../index.ts'
import {
  Dialog,
  NewPasswordFields,
  newPasswordErrors,
  passwordToggle,
  serverErrors,
  zodErrors,
  type FieldErrors,
} from './dialog-parts.tsx'
import { RegisterDialog } from './RegisterDialog.tsx'

function LoginDialog() {
  const [session, setSession] = useAtom(sessionAtom)
  const setDialog = useSetAtom(authDialogAtom)
  const [lastEmail, setLastEmail] = useAtom(lastEmailAtom)
  const [email, setEmail] = useState(lastEmail)
  const [password, setPassword] = useState('')
  const [errors, setErrors] = useState<FieldErrors>({})
  const [busy, setBusy] = useState(false)
  useUnsavedWork(password !== '' || (email !== '' && email !== lastEmail))

  const close = () => {
    setSession({ ...session, isOpenLogin: false })
    api.cancelAfterLogin()
  }
  const switchTo = (dialog: 'register' | 'forgot') => {
    setLastEmail(email)
    setSession({ ...session, isOpenLogin: false })
    setDialog(dialog)
  }
  async function submit(e: FormEvent) {
    e.preventDefault()
    const parsed = loginBody.safeParse({ email, password })
    if (!parsed.success) return setErrors(zodErrors(parsed.error))
    setErrors({})
    setBusy(true)
    const res = await authApi.login(parsed.data)
    setBusy(false)
    if (res.ok) {
      setLastEmail(parsed.data.email)
      setPassword('')
    } else setErrors(serverErrors(res.fieldErrors))
  }

  return (
    <Dialog title="Đăng nhập" opened onClose={close}>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <Stack gap="sm">
          <TextInput
            label="E-mail"
            type="email"
            autoComplete="email"
            inputMode="email"
            required
            data-autofocus
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            error={errors.email}
            size="md"
          />
          <PasswordInput
            label="Mật khẩu"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            error={errors.password}
            visibilityToggleButtonProps={passwordToggle}
            size="md"
          />
          <Group justify="space-between" wrap="wrap">
            <Anchor component="button" type="button" onClick={() => switchTo('forgot')} py={10}>
              Quên mật khẩu?
            </Anchor>
            <Anchor component="button" type="button" onClick={() => switchTo('register')} py={10}>
              Chưa có tài khoản? Đăng ký
            </Anchor>
          </Group>
          <Button type="submit" loading={busy} fullWidth>
            Đăng nhập
          </Button>
        </Stack>
      </form>
    </Dialog>
  )
}

function ForgotPasswordDialog() {
  const [dialog, setDialog] = useAtom(authDialogAtom)
  const [lastEmail, setLastEmail] = useAtom(lastEmailAtom)
  const [email, setEmail] = useState(lastEmail)
  const [errors, setErrors] = useState<FieldErrors>({})
  const [busy, setBusy] = useState(false)

  async function submit(e: FormEvent) {
    e.preventDefault()
    const parsed = forgotPasswordBody.safeParse({ email })
    if (!parsed.success) return setErrors(zodErrors(parsed.error))
    setErrors({})
    setBusy(true)
    const res = await authApi.forgotPassword(parsed.data)
    setBusy(false)
    if (!res.ok) return setErrors(serverErrors(res.fieldErrors))
    setLastEmail(parsed.data.email)
    setDialog('reset')
  }

  return (
    <Dialog title="Quên mật khẩu" opened={dialog === 'forgot'} onClose={() => setDialog(null)}>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <Stack gap="sm">
          <Text size="sm">Nhập e-mail đã đăng ký, chúng tôi sẽ gửi mã đặt lại mật khẩu (hiệu lực 30 phút).</Text>
          <TextInput
            label="E-mail"
            type="email"
            autoComplete="email"
            inputMode="email"
            required
            data-autofocus
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            error={errors.email}
            size="md"
          />
          <Button type="submit" loading={busy} fullWidth>
            Gửi mã
          </Button>
          <Anchor component="button" type="button" onClick={() => setDialog('reset')} py={10}>
            Đã có mã? Đặt lại mật khẩu
          </Anchor>
        </Stack>
      </form>
    </Dialog>
  )
}

function ResetPasswordDialog() {
  const [dialog, setDialog] = useAtom(authDialogAtom)
  const [session, setSession] = useAtom(sessionAtom)
  const [code, setCode] = useState('')
  const [password, setPassword] = useState('')
  const [password2, setPassword2] = useState('')
  const [errors, setErrors] = useState<FieldErrors>({})
  const [busy, setBusy] = useState(false)
  useUnsavedWork(code !== '' || password !== '' || password2 !== '')

  async function submit(e: FormEvent) {
    e.preventDefault()
    const parsed = resetPasswordBody.safeParse({ code, new_password: password })
    const found = newPasswordErrors(parsed, password, password2)
    if (!parsed.success || found.password2) return setErrors(found)
    setErrors({})
    setBusy(true)
    const res = await authApi.resetPassword(parsed.data)
    setBusy(false)
    if (!res.ok) return setErrors(serverErrors(res.fieldErrors))
    setDialog(null)
    setSession({ ...session, isOpenLogin: true })
  }

  return (
    <Dialog title="Đặt lại mật khẩu" opened={dialog === 'reset'} onClose={() => setDialog(null)}>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <Stack gap="sm">
          <TextInput
            label="Mã trong e-mail"
            autoComplete="one-time-code"
            required
            data-autofocus
            value={code}
            onChange={(e) => setCode(e.currentTarget.value)}
            error={errors.code}
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
          <Button type="submit" loading={busy} fullWidth>
            Đặt lại mật khẩu
          </Button>
        </Stack>
      </form>
    </Dialog>
  )
}

/** The four account dialogs; loaded only when one of them is first needed. */
export default function AuthDialogs() {
  const [session] = useAtom(sessionAtom)
  const [dialog] = useAtom(authDialogAtom)
  return (
    <>
      {session.isOpenLogin && <LoginDialog />}
      {dialog === 'register' && <RegisterDialog />}
      {dialog === 'forgot' && <ForgotPasswordDialog />}
      {dialog === 'reset' && <ResetPasswordDialog />}
    </>
  )
}
