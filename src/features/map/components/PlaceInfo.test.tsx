import { afterEach, describe, expect, it, vi } from 'vitest'
import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import type { Place } from '#core/contract/lookups.ts'
import { planningFixture } from '../../valuation/test-fixtures.ts'
import { withRouter } from '../../../lib/testing/with-router.tsx'
import { formerLine } from './PlaceInfo.tsx'
import ResultCard from './ResultCard.tsx'

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

  it('shows the place and says in words that there is no planning data, and what data the server has, when a tap finds no parcel or plan', async () => {
    const onShowData = vi.fn()
    const server = {
      bounds: [106.68, 10.78, 106.71, 10.81] as [number, number, number, number],
      wards: ['Phường Gia An, Thành phố Hồ Chí Minh'],
      datasets: ['Phường mô phỏng — nguồn: Dữ liệu mô phỏng, ngày dữ liệu 30/06/2026'],
    }
    render(
      withRouter(
        <ResultCard
          selection={{ point, status: 'no-data', place: saiGon }}
          shareUrl="/"
          onLookup={() => {}}
          server={server}
          onShowData={onShowData}
        />,
      ),
    )
    expect(await screen.findByRole('heading', { name: 'Phường Sài Gòn, TP. Hồ Chí Minh' })).toBeTruthy()
    expect(screen.getByTestId('no-data-text').textContent).toBe('Chưa có dữ liệu quy hoạch ở khu vực này.')
    expect(screen.getByTestId('result-place').textContent).toContain('Ranh giới hành chính')
    // The heading says the place; the line under it does not repeat it.
    expect(screen.getByTestId('result-place').textContent).not.toContain('Phường Sài Gòn')
    const held = screen.getByTestId('server-data').textContent
    expect(held).toContain('Máy chủ có dữ liệu thửa đất và quy hoạch ở: Phường Gia An, Thành phố Hồ Chí Minh.')
    expect(held).toContain('Phường mô phỏng — nguồn: Dữ liệu mô phỏng, ngày dữ liệu 30/06/2026')
    fireEvent.click(screen.getByRole('button', { name: 'Tới vùng có dữ liệu' }))
    expect(onShowData).toHaveBeenCalledOnce()
  })

  it('says so when the server holds no parcels or plans at all', async () => {
    render(
      withRouter(
        <ResultCard
          selection={{ point, status: 'no-data', place: saiGon }}
          shareUrl="/"
          onLookup={() => {}}
          server={{ bounds: null, wards: [], datasets: [] }}
        />,
      ),
    )
    expect((await screen.findByTestId('server-data')).textContent).toContain(
      'Máy chủ chưa có dữ liệu thửa đất hay quy hoạch nào',
    )
    expect(screen.queryByRole('button', { name: 'Tới vùng có dữ liệu' })).toBeNull()
  })
})

describe('the former units', () => {
  const at = (before_2025: Place['before_2025']): Place => ({ ...saiGon, before_2025 })
  it('names one old ward with its district, and several of one district with the district once', () => {
    expect(formerLine(saiGon)).toBe('Phường Bến Nghé, Quận 1')
    const hoanKiem = 'Quận Hoàn Kiếm'
    const province = 'Thành phố Hà Nội'
    expect(
      formerLine(
        at([
          { ward: 'Phường Hàng Mã', district: hoanKiem, province },
          { ward: 'Phường Hàng Bồ', district: hoanKiem, province },
          { ward: 'Phường Hàng Mã', district: hoanKiem, province },
          { ward: 'Xã Tiền Phong', district: 'Huyện Mê Linh', province },
        ]),
      ),
    ).toBe('Phường Hàng Mã, Hàng Bồ (Quận Hoàn Kiếm); Xã Tiền Phong, Huyện Mê Linh')
  })
})
