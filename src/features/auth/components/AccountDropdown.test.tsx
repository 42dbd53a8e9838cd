import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { cleanup, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MantineProvider } from '@mantine/core'
import { listItems, putItem, removeItem } from '#core/outbox/queue.ts'
import { photoOutboxItem } from '../../../../tests/support/outbox-item.ts'
import { appApiHooks } from '../../../app/api-hooks.ts'
import { clearDeviceData } from '../../../app/device-data.ts'
import { installLogoutCleanup } from '../index.ts'
import { installApiHooks } from '../../../lib/api/index.ts'
import { store } from '../../../lib/store.ts'
import { sessionAtom } from '../atoms.ts'
import AccountDropdown from './AccountDropdown.tsx'

async function queuePhoto() {
  await putItem(photoOutboxItem('anh', Date.now(), { label: null }))
}

beforeAll(() => {
  // Logging out calls the server through the app's client, which the app wires up at start.
  installApiHooks(appApiHooks(store))
  installLogoutCleanup(clearDeviceData)
})

beforeEach(async () => {
  for (const item of await listItems()) await removeItem(item.id)
  store.set(sessionAtom, {
    userName: 'Lan',
    token: 't',
    expiresAt: '2099-01-01T00:00:00+07:00',
    isLogin: true,
    isOpenLogin: false,
  })
})
afterEach(cleanup)

async function chooseLogout() {
  const user = userEvent.setup()
  render(
    <MantineProvider env="test">
      <AccountDropdown userName="Lan" />
    </MantineProvider>,
  )
  await user.click(screen.getByTestId('account-menu'))
  await user.click(await screen.findByRole('menuitem', { name: 'Đăng xuất' }))
  return user
}

// The first render loads Mantine's menu and modal: seconds on a busy machine.
describe('logging out asks what happens to the device’s work', { timeout: 20_000 }, () => {
  it('keeps the session and the photo when the dialog is closed', async () => {
    await queuePhoto()
    const user = await chooseLogout()
    const dialog = await screen.findByRole('dialog', { name: 'Đăng xuất' })
    await expect.poll(() => dialog.textContent).toContain('1 ảnh chưa được gửi')
    await user.click(screen.getByRole('button', { name: 'Đóng' }))
    expect(store.get(sessionAtom).isLogin).toBe(true)
    expect(await listItems()).toHaveLength(1)
  })

  it('logs out and keeps the photo for the next login when asked to keep', async () => {
    await queuePhoto()
    const user = await chooseLogout()
    await user.click(await screen.findByRole('button', { name: 'Giữ lại và đăng xuất' }))
    await expect.poll(() => store.get(sessionAtom).isLogin).toBe(false)
    expect(await listItems()).toHaveLength(1)
  })

  it('logs out and deletes the photo when asked to clear the device', async () => {
    await queuePhoto()
    const user = await chooseLogout()
    await user.click(await screen.findByRole('button', { name: 'Xoá khỏi máy và đăng xuất' }))
    await expect.poll(() => store.get(sessionAtom).isLogin).toBe(false)
    await expect.poll(() => listItems()).toEqual([])
  })
})
