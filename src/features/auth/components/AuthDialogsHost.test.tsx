import { act } from 'react'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { cleanup, render, screen } from '@testing-library/react'
import { Provider } from 'jotai'
import { MantineProvider } from '@mantine/core'
import { store } from '../../../lib/store.ts'
import { emptySession, sessionAtom } from '../atoms.ts'
import { AuthDialogsHost, preloadAuthDialogs } from './AuthDialogsHost.tsx'

beforeAll(() => {
  // Mantine reads the colour scheme through matchMedia, which jsdom does not have.
  window.matchMedia ??= ((query: string) => ({
    matches: false,
    media: query,
    addEventListener() {},
    removeEventListener() {},
    addListener() {},
    removeListener() {},
    onchange: null,
    dispatchEvent: () => false,
  })) as never
})

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
