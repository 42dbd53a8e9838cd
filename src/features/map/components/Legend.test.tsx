import { afterEach, describe, expect, it } from 'vitest'
import { act, cleanup, render, screen } from '@testing-library/react'
import { MantineProvider } from '@mantine/core'
import { legendFor } from '../land-use.ts'
import { Legend } from './LayerPanel.tsx'

afterEach(() => {
  cleanup()
  document.documentElement.removeAttribute('data-mantine-color-scheme')
})

const look = { planningOpacity: 0.6, highContrast: false }
const show = (props: Omit<Parameters<typeof Legend>[0], keyof typeof look> & Partial<typeof look>) =>
  render(
    <MantineProvider>
      <Legend {...look} {...props} />
    </MantineProvider>,
  )

describe('the legend', () => {
  it('lists only the codes on screen, once each, with the parcel outline and the road reserve when they are drawn', () => {
    show({
      entries: legendFor([{ code: 'ODT' }, { code: 'DGT' }, { code: 'ODT' }]),
      reserves: true,
      parcels: true,
      compact: false,
    })
    const texts = screen.getAllByRole('listitem').map((li) => li.textContent ?? '')
    expect(texts).toHaveLength(4)
    expect(texts.filter((t) => /^ODT /.test(t))).toHaveLength(1)
    expect(texts.filter((t) => /^DGT /.test(t))).toHaveLength(1)
    expect(texts).toContain('Lộ giới (chỉ giới đường đỏ)')
    expect(texts.filter((t) => t.endsWith('Ranh thửa và số thửa'))).toHaveLength(1)
  })

  it('leaves out the parcel and road-reserve entries when neither is on screen', () => {
    show({ entries: legendFor([{ code: 'ODT' }]), reserves: false, parcels: false, compact: false })
    expect(screen.getAllByRole('listitem')).toHaveLength(1)
    expect(screen.queryByTestId('legend-reserves')).toBeNull()
    expect(screen.queryByTestId('legend-parcels')).toBeNull()
  })

  it('counts every entry on the folded button of a phone', () => {
    show({ entries: legendFor([{ code: 'ODT' }]), reserves: true, parcels: true, compact: true })
    expect(screen.getByTestId('legend-chip').textContent).toBe('Chú giải (3)')
  })

  it('explains today’s boundaries with their date and source when the map draws them', () => {
    const boundaries = {
      name: 'Ranh giới hành chính 2025',
      source: 'sapnhap.bando.com.vn qua thanglequoc/vietnamese-provinces-database (MIT)',
      data_date: '2025-07-01',
    }
    show({ entries: [], reserves: false, parcels: false, boundaries, compact: false })
    expect(screen.getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'Ranh giới tỉnh, thành phố',
      'Ranh giới phường, xã, đặc khu',
    ])
    expect(screen.getByTestId('legend-boundaries-source').textContent).toBe(
      'Ranh giới hành chính 01/07/2025 — nguồn: sapnhap.bando.com.vn qua thanglequoc/vietnamese-provinces-database (MIT)',
    )
    cleanup()
    show({ entries: [], reserves: false, parcels: false, boundaries, compact: true })
    expect(screen.getByTestId('legend-chip').textContent).toBe('Chú giải (2)')
  })

  it('draws the parcel swatch in the map’s parcel colours for the page’s scheme, and follows the scheme when it changes', async () => {
    show({ entries: [], reserves: false, parcels: true, compact: false })
    const swatch = screen.getByTestId('legend-parcels').querySelector<HTMLElement>('.qh-swatch')!
    expect(swatch.style.borderColor).toBe('rgb(51, 65, 85)')
    await act(async () => {
      document.documentElement.setAttribute('data-mantine-color-scheme', 'dark')
      await Promise.resolve()
    })
    expect(swatch.style.borderColor).toBe('rgb(203, 213, 225)')
    expect(swatch.style.color).toBe('rgb(241, 245, 249)')
  })
})
