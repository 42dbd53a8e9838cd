import { useState, type FormEvent } from 'react'
import { useAtom } from 'jotai'
import { Anchor, Button, Stack, TextInput } from '@mantine/core'
import { registerBody } from '#core/contract/auth.ts'
import { useUnsavedWork } from '../../update/index.ts'
import { authDialogAtom, lastEmailAtom, sessionAtom } from '../atoms.ts'
import { authApi } from '../index.ts'
import { Dialog, NewPasswordFields, newPasswordErrors, serverErrors, type FieldErrors } from './dialog-parts.tsx'

/** Registering logs the new account in; a link leads back to the login for those who have one. */
export function RegisterDialog() {
  const [dialog, setDialog] = useAtom(authDialogAtom)
  const [session, setSession] = useAtom(sessionAtom)
  const [lastEmail, setLastEmail] = useAtom(lastEmailAtom)
  const [name, setName] = useState('')
  const [email, setEmail] = useState(lastEmail)
  const [password, setPassword] = useState('')
  const [password2, setPassword2] = useState('')
  const [errors, setErrors] = useState<FieldErrors>({})
  const [busy, setBusy] = useState(false)
  useUnsavedWork(name !== '' || password !== '' || password2 !== '')

  async function submit(e: FormEvent) {
    e.preventDefault()
    const parsed = registerBody.safeParse({ name, email, password })
    const found = newPasswordErrors(parsed, password, password2)
    if (!parsed.success || found.password2) return setErrors(found)
    setErrors({})
    setBusy(true)
    const res = await authApi.register(parsed.data)
    setBusy(false)
    if (!res.ok) return setErrors(serverErrors(res.fieldErrors))
    setLastEmail(parsed.data.email)
    setDialog(null)
    // Logged in already unless that login failed; then the login dialog asks, the e-mail filled in.
    if (!res.loggedIn) setSession({ ...session, isOpenLogin: true })
  }
  const toLogin = () => {
    setLastEmail(email)
    setDialog(null)
    setSession({ ...session, isOpenLogin: true })
  }

  return (
    <Dialog title="Đăng ký tài khoản" opened={dialog === 'register'} onClose={() => setDialog(null)}>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <Stack gap="sm">
          <TextInput
            label="Họ tên"
            autoComplete="name"
            required
            data-autofocus
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={errors.name}
            size="md"
          />
          <TextInput
            label="E-mail"
            type="email"
            autoComplete="email"
            inputMode="email"
            required
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            error={errors.email}
            size="md"
          />
          <NewPasswordFields
            label="Mật khẩu"
            repeatLabel="Nhập lại mật khẩu"
            password={password}
            password2={password2}
            onPassword={setPassword}
            onPassword2={setPassword2}
            error={errors.password}
            repeatError={errors.password2}
          />
          <Button type="submit" loading={busy} fullWidth>
            Đăng ký
          </Button>
          <Anchor component="button" type="button" onClick={toLogin} py={10}>
            Đã có tài khoản? Đăng nhập
          </Anchor>
        </Stack>
      </form>
    </Dialog>
  )
}
