import { afterEach, describe, expect, it } from 'vitest'
import { cleanup, render, screen } from '@testing-library/react'
import { MantineProvider } from '@mantine/core'
import { DEFAULT_SETTINGS } from '../settings.ts'
import type { PositionSnapshot } from '../source.ts'
import { GpsSettings } from './GpsSettings.tsx'
import { PositionStatus } from './PositionStatus.tsx'

afterEach(cleanup)

const snapshot = (patch: Partial<PositionSnapshot>): PositionSnapshot => ({
  settings: DEFAULT_SETTINGS,
  active: 'phone',
  receiver: { status: 'idle', baud: null, message: null, sentences: 0, badChecksums: 0 },
  fix: null,
  quality: null,
  lastAt: null,
  bestRank: 0,
  phoneError: null,
  status: 'waiting',
  now: 0,
  ...patch,
})

describe('the GPS panel', () => {
  it('says plainly where Web Serial is missing, and offers no receiver', () => {
    render(
      <MantineProvider>
        <GpsSettings position={snapshot({ receiver: { ...snapshot({}).receiver, status: 'unsupported' } })} />
      </MantineProvider>,
    )
    expect(screen.getByTestId('serial-unsupported').textContent).toMatch(/không có Web Serial \(iPhone, iPad, Firefox/)
    expect(screen.queryByRole('button', { name: 'Kết nối máy thu' })).toBeNull()
  })

  it('offers to connect a receiver where it can, with the baud rate to detect or choose', () => {
    render(
      <MantineProvider>
        <GpsSettings position={snapshot({})} />
      </MantineProvider>,
    )
    expect(screen.getByRole('button', { name: 'Kết nối máy thu' })).toBeTruthy()
    expect(screen.getByLabelText('Tốc độ cổng (baud)')).toBeTruthy()
    expect(screen.getByTestId('accuracy-gate')).toBeTruthy()
  })
})

describe('the one-line status', () => {
  it('is an alert, marked for the red style, when the position is stale', () => {
    render(<PositionStatus position={snapshot({ status: 'stale', active: 'receiver', lastAt: 0, now: 4200 })} />)
    const line = screen.getByRole('alert')
    expect(line.getAttribute('data-alarm')).toBe('true')
    expect(line.textContent).toBe('MẤT TÍN HIỆU — vị trí cuối 4 giây trước, không dùng để đo')
  })
})
