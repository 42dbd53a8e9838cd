import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { cleanup, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MantineProvider } from '@mantine/core'
import { ExportButtons, type ExportFile } from './ExportButtons.tsx'

/** What the browser was handed: each download's file name, type and text, in order. */
let handed: { name: string; type: string; blob: Blob }[] = []
beforeEach(() => {
  handed = []
  const blobs = new Map<string, Blob>()
  // jsdom has no object URLs and does not download: the link's click is where the file leaves.
  URL.createObjectURL = (b: Blob | MediaSource) => {
    const url = `blob:test/${blobs.size}`
    blobs.set(url, b as Blob)
    return url
  }
  URL.revokeObjectURL = () => {}
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    const blob = blobs.get(this.href)!
    handed.push({ name: this.download, type: blob.type, blob })
  })
})
afterEach(() => {
  cleanup()
  vi.restoreAllMocks()
})

const text = (b: Blob) =>
  new Promise<string>((resolve) => {
    const r = new FileReader()
    r.onload = () => resolve(r.result as string)
    r.readAsText(b)
  })

const show = (files: ExportFile[], extra?: React.ReactNode) =>
  render(
    <MantineProvider>
      <ExportButtons base="Cắm mốc 2026-11-27" files={files} what="kết quả cắm mốc">
        {extra}
      </ExportButtons>
    </MantineProvider>,
  )

describe('the export buttons', () => {
  it('show "Tải" and the format for each file in the order given, each named for a screen reader with what it holds', () => {
    show(
      [
        { format: 'csv', build: () => '' },
        { format: 'geojson', build: () => '' },
        { format: 'dxf', build: () => '' },
      ],
      <button type="button">In A4</button>,
    )
    const buttons = screen.getAllByRole('button')
    expect(buttons.map((b) => b.textContent)).toEqual(['Tải CSV', 'Tải GeoJSON', 'Tải DXF', 'In A4'])
    expect(buttons.slice(0, 3).map((b) => b.getAttribute('aria-label'))).toEqual([
      'Tải CSV kết quả cắm mốc',
      'Tải GeoJSON kết quả cắm mốc',
      'Tải DXF kết quả cắm mốc',
    ])
  })

  it('hand the browser the file pressed, named from the base without diacritics, with its type and the text built then', async () => {
    const csv = vi.fn(() => 'Điểm,X\r\n')
    const dxf = vi.fn(() => '0\r\nEOF\r\n')
    show([
      { format: 'csv', build: csv },
      { format: 'dxf', build: dxf },
    ])
    expect(csv).not.toHaveBeenCalled()
    await userEvent.click(screen.getByRole('button', { name: 'Tải DXF kết quả cắm mốc' }))
    expect(csv).not.toHaveBeenCalled()
    expect(handed.map(({ name, type }) => ({ name, type }))).toEqual([
      { name: 'cam-moc-2026-11-27.dxf', type: 'application/dxf' },
    ])
    expect(await text(handed[0]!.blob)).toBe('0\r\nEOF\r\n')
  })

  it('are reached with Tab and pressed with Enter or Space, each format with its own type', async () => {
    show([
      { format: 'csv', build: () => 'a' },
      { format: 'geojson', build: () => '{}' },
    ])
    await userEvent.tab()
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Tải CSV kết quả cắm mốc' }))
    await userEvent.keyboard('{Enter}')
    await userEvent.tab()
    await userEvent.keyboard(' ')
    expect(handed.map(({ name, type }) => ({ name, type }))).toEqual([
      { name: 'cam-moc-2026-11-27.csv', type: 'text/csv;charset=utf-8' },
      { name: 'cam-moc-2026-11-27.geojson', type: 'application/geo+json' },
    ])
    expect(await text(handed[1]!.blob)).toBe('{}')
  })
})
