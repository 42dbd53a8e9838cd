import { describe, expect, it } from 'vitest'
import { registerBody, resetPasswordBody } from '#core/contract/auth.ts'
import { newPasswordErrors } from './dialog-parts.tsx'

describe('the errors of a form with a new password typed twice', () => {
  it('are none when the fields pass and the repeat matches', () => {
    expect(
      newPasswordErrors(
        resetPasswordBody.safeParse({ code: '123456', new_password: 'mat-khau-moi-1' }),
        'mat-khau-moi-1',
        'mat-khau-moi-1',
      ),
    ).toEqual({})
  })

  it('say the repeat does not match, beside the fields the contract refuses', () => {
    const parsed = registerBody.safeParse({ name: 'Lan', email: 'khong-phai-email', password: 'mat-khau-1' })
    const found = newPasswordErrors(parsed, 'mat-khau-1', 'mat-khau-2')
    expect(found.password2).toBe('Mật khẩu nhập lại không khớp.')
    expect(found.email).toBeTruthy()
    expect(found.password).toBeUndefined()
  })
})
