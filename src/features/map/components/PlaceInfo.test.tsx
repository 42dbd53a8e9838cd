import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { cleanup, render, screen } from '@testing-library/react'
import type { Place } from '#core/contract/lookups.ts'
import { planningFixture } from '../../valuation/test-fixtures.ts'
import { withRouter } from '../../../lib/testing/with-router.tsx'
import ResultCard from './ResultCard.tsx'

beforeAll(() => {
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
afterEach(cleanup)

const saiGon: Place = {
  ward: 'Phường Sài Gòn',
  province: 'Thành phố Hồ Chí Minh',
  before_2025: [{ ward: 'Phường Bến Nghé', district: 'Quận 1', province: 'Thành phố Hồ Chí Minh' }],
  source: { name: 'Ranh giới hành chính 2025', data_date: '2025-07-01' },
}
const point = { lat: 10.7769, lng: 106.7031 }

describe('the place on the card', () => {
  it('shows the ward and province of today and, smaller, the ward and district before 1/7/2025', async () => {
    render(
      withRouter(
        <ResultCard
          selection={{ point, status: 'ready', result: { ...planningFixture, place: saiGon } }}
          shareUrl="/"
          onLookup={() => {}}
        />,
      ),
    )
    expect((await screen.findByTestId('result-place')).textContent).toContain('Phường Sài Gòn, TP. Hồ Chí Minh')
    expect(screen.getByTestId('result-place-before').textContent).toBe('Trước 1/7/2025: Phường Bến Nghé, Quận 1')
  })

  it('shows the place and says in words that there is no planning data when a tap finds no parcel or plan', async () => {
    render(
      withRouter(
        <ResultCard selection={{ point, status: 'no-data', place: saiGon }} shareUrl="/" onLookup={() => {}} />,
      ),
    )
    expect(await screen.findByRole('heading', { name: 'Phường Sài Gòn' })).toBeTruthy()
    expect(screen.getByTestId('no-data-text').textContent).toContain('Chưa có dữ liệu quy hoạch ở khu vực này')
    expect(screen.getByTestId('result-place').textContent).toContain('Ranh giới hành chính')
  })
})
