import { cleanup, render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MantineProvider } from '@mantine/core'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { SearchResult } from '#core/contract/lookups.ts'
import SearchBox, { type SearchChoice } from './SearchBox.tsx'

const results: SearchResult[] = [
  { kind: 'street', id: 's1', label: 'Nguyễn Huệ', detail: 'Phường Sài Gòn', lat: 10.77, lng: 106.7 },
  { kind: 'address', id: 'a2', label: '12 Nguyễn Huệ', detail: 'Phường Sài Gòn', lat: 10.77, lng: 106.7 },
]

const searchPlaces = vi.fn(async (_q: string) => ({ ok: true, data: results }))
vi.mock('../lookup.ts', () => ({
  searchPlaces: (q: string) => searchPlaces(q),
  findParcels: vi.fn(async () => ({ ok: true, data: [] })),
}))

afterEach(cleanup)

function renderBox(onChoose: (c: SearchChoice) => void) {
  render(
    <MantineProvider>
      <SearchBox loggedIn onChoose={onChoose} />
    </MantineProvider>,
  )
  return screen.getByRole('combobox', { name: 'Tìm địa chỉ, tên đường hoặc tờ/thửa' })
}

describe('the map search read by a screen reader and a keyboard', () => {
  it('offers each result as an option of a results list, not as a plain list item', async () => {
    const box = renderBox(() => {})
    await userEvent.type(box, 'nguyen hue')
    const list = await screen.findByRole('listbox', { name: 'Kết quả tìm kiếm' })
    await waitFor(() => expect(list.querySelectorAll('[role="option"]')).toHaveLength(2))
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual([
      'Nguyễn HuệĐường · Phường Sài Gòn',
      '12 Nguyễn HuệĐịa chỉ · Phường Sài Gòn',
    ])
    expect(screen.queryAllByRole('listitem')).toHaveLength(0)
    expect(box.getAttribute('aria-expanded')).toBe('true')
    expect(box.getAttribute('aria-controls')).toBe(list.id)
  })

  it('moves through the results with the arrows, announces the active one and chooses it with Enter', async () => {
    const onChoose = vi.fn()
    const box = renderBox(onChoose)
    await userEvent.type(box, 'nguyen hue')
    await screen.findAllByRole('option')
    const active = () => document.getElementById(box.getAttribute('aria-activedescendant') ?? '')
    await waitFor(() => expect(active()?.textContent).toContain('Nguyễn Huệ'))
    await userEvent.keyboard('{ArrowDown}')
    expect(active()?.textContent).toContain('12 Nguyễn Huệ')
    expect(active()?.getAttribute('aria-selected')).toBe('true')
    await userEvent.keyboard('{Enter}')
    expect(onChoose).toHaveBeenCalledWith({ kind: 'place', place: results[1] })
    expect((box as HTMLInputElement).value).toBe('12 Nguyễn Huệ')
    expect(box.getAttribute('aria-expanded')).toBe('false')
  })

  it('calls an alley a hẻm, ngõ or kiệt, not a street, and a street whose name begins with Ngô a street', async () => {
    const ways: SearchResult[] = [
      { kind: 'street', id: 'h', label: 'Hẻm 12 Nguyễn Huệ', detail: 'Phường Sài Gòn', lat: 10.77, lng: 106.7 },
      { kind: 'street', id: 'n', label: 'Ngõ 5 Phố Huế', detail: 'Phường Hai Bà Trưng', lat: 21.01, lng: 105.85 },
      { kind: 'street', id: 'k', label: 'Kiệt 34 Lê Lợi', detail: 'Phường Hải Châu', lat: 16.07, lng: 108.22 },
      { kind: 'street', id: 'q', label: 'Ngô Quyền', detail: 'Phường Hải Châu', lat: 16.07, lng: 108.22 },
    ]
    searchPlaces.mockResolvedValueOnce({ ok: true, data: ways })
    await userEvent.type(
      renderBox(() => {}),
      'hem',
    )
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(4))
    expect(screen.getAllByRole('option').map((o) => o.lastElementChild?.textContent)).toEqual([
      'Hẻm · Phường Sài Gòn',
      'Ngõ · Phường Hai Bà Trưng',
      'Kiệt · Phường Hải Châu',
      'Đường · Phường Hải Châu',
    ])
  })

  it('keeps the results open when the box is left and typed into again at once', async () => {
    const box = renderBox(() => {})
    await userEvent.type(box, 'ng')
    box.blur()
    // Back within the moment the list waits before closing, as a tap elsewhere followed by typing is.
    await userEvent.type(box, 'uyen hue')
    await new Promise((r) => setTimeout(r, 300))
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(2))
    expect(box.getAttribute('aria-expanded')).toBe('true')
  })
})
