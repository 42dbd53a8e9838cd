import { act } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { Provider } from 'jotai'
import { MantineProvider } from '@mantine/core'
import { store } from '../../../lib/store.ts'
import { emptySession, sessionAtom } from '../atoms.ts'
import { AccountMenu } from './AccountMenu.tsx'
import { AuthDialogsHost } from './AuthDialogsHost.tsx'

afterEach(() => {
  cleanup()
  store.set(sessionAtom, emptySession)
})

describe('AccountMenu, logged out', () => {
  it('starts loading the login dialog when the pointer goes down on "Đăng nhập", so the tap opens it in its own commit', async () => {
    render(
      <Provider store={store}>
        <MantineProvider>
          <AccountMenu />
          <AuthDialogsHost />
        </MantineProvider>
      </Provider>,
    )
    const button = screen.getAllByRole('button', { name: 'Đăng nhập' })[0]!
    fireEvent.pointerDown(button)
    await vi.dynamicImportSettled()
    act(() => button.click())
    expect(screen.getByRole('dialog', { name: 'Đăng nhập' })).toBeTruthy()
  })
})
