import { act } from 'react'
import { afterEach, describe, expect, it } from 'vitest'
import { cleanup, render, screen } from '@testing-library/react'
import { Provider } from 'jotai'
import { MantineProvider } from '@mantine/core'
import { store } from '../../../lib/store.ts'
import { emptySession, sessionAtom } from '../atoms.ts'
import { AuthDialogsHost, preloadAuthDialogs } from './AuthDialogsHost.tsx'

afterEach(() => {
  cleanup()
  store.set(sessionAtom, emptySession)
})

describe('AuthDialogsHost', () => {
  it('opens the login dialog in the same commit as the tap once its code has been preloaded', async () => {
    await preloadAuthDialogs()
    render(
      <Provider store={store}>
        <MantineProvider>
          <AuthDialogsHost />
        </MantineProvider>
      </Provider>,
    )
    expect(screen.queryByRole('dialog')).toBeNull()
    act(() => store.set(sessionAtom, { ...emptySession, isOpenLogin: true }))
    expect(screen.getByRole('dialog', { name: 'Đăng nhập' })).toBeTruthy()
  })
})
