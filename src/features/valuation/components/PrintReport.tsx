import {
  formatArea,
  formatDate,
  formatDateTime,
  formatDistance,
  formatMeridian,
  formatMeters,
  formatMoneyShort,
  formatNumber,
  formatPercent,
  formatVndPerM2,
} from '../../../lib/format/format.ts'
import type { ShownResult } from '../atoms.ts'
import { CONFIDENCE_CAP } from '#core/valuation/confidence.ts'
import { confidenceWords, DISCLAIMER, NUMBERED, planningSummary, positionReason } from '../explain.ts'
import { weightText } from '../adjustments.ts'
import { METHOD_NAMES, methodShare } from './MethodsList.tsx'
import { StatePriceRow, tableLine } from './StatePriceRow.tsx'
import { legalStatuses } from '../../../lib/valuation-record.ts'

/**
 * The one-page A4 report. Hidden on screen; the print stylesheet shows it alone, so what is printed or
 * saved as PDF is this page and not the form around it.
 */
export function PrintReport({ shown, mapImage }: { shown: ShownResult; mapImage: string | null }) {
  const { record, at } = shown
  const { data, facts, place } = record
  const m = data.market_estimate
  const s = data.state_price
  const planning = record.planning ? planningSummary(record.planning.data) : null
  const zone = record.planning?.data.zones[0]
  const rows: [string, string][] = [
    ['Địa chỉ', data.parcel.address || '—'],
    ['Tờ / thửa', `Tờ ${data.parcel.sheet_no}, thửa ${data.parcel.parcel_no}`],
    ['Phường/xã, tỉnh', [data.parcel.ward, data.parcel.district, data.parcel.province].filter(Boolean).join(', ')],
    [
      'Diện tích',
      `${formatArea(facts.area_m2 ?? data.parcel.area_m2)}${facts.area_m2 !== null && facts.area_m2 !== data.parcel.area_m2 ? ` (hồ sơ: ${formatArea(data.parcel.area_m2)})` : ''}`,
    ],
    ['Mục đích sử dụng', data.parcel.land_use.map((u) => `${u.name} (${u.code}) ${formatArea(u.area_m2)}`).join('; ')],
    ['Mặt tiền', facts.frontage_m !== null ? formatMeters(facts.frontage_m) : 'theo dữ liệu thửa'],
    [
      'Vị trí',
      facts.alley_width_m === 0
        ? 'Mặt tiền đường'
        : facts.alley_width_m !== null
          ? `Hẻm rộng ${formatMeters(facts.alley_width_m)}`
          : 'theo dữ liệu thửa',
    ],
    ['Số tầng', facts.floors !== null ? String(facts.floors) : '—'],
    ['Pháp lý', legalStatuses[facts.legal]],
    [
      'Toạ độ',
      `${place.lat.toFixed(6)}, ${place.lng.toFixed(6)} · VN-2000 (KTT ${formatMeridian(data.location.vn2000.zone_meridian)}) X ${formatNumber(data.location.vn2000.x, 2)}, Y ${formatNumber(data.location.vn2000.y, 2)}`,
    ],
  ]
  if (facts.notes) rows.push(['Ghi chú', facts.notes])

  return (
    <article className="print-report" aria-hidden="true" data-testid="print-report">
      <header className="pr-head">
        <div>
          <h1>Báo cáo định giá đất (tham khảo)</h1>
          <p>{place.label}</p>
        </div>
        <div className="pr-meta">
          <div>Quy hoạch VN</div>
          <div>{formatDateTime(at)}</div>
        </div>
      </header>

      <div className="pr-top">
        <table className="pr-facts">
          <tbody>
            {rows.map(([k, v]) => (
              <tr key={k}>
                <th>{k}</th>
                <td>{v}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <div className="pr-map">
          {mapImage ? (
            <img src={mapImage} alt="Bản đồ thửa đất và giao dịch so sánh" />
          ) : (
            <div className="pr-map-empty">Bản đồ chưa tải xong</div>
          )}
        </div>
      </div>

      <div className="pr-prices">
        <section>
          <h2>Giá thị trường ước tính</h2>
          {m ? (
            <>
              <p className="pr-big">
                {formatMoneyShort(m.low_vnd)} – <strong>{formatMoneyShort(m.mid_vnd)}</strong> –{' '}
                {formatMoneyShort(m.high_vnd)}
              </p>
              <p>
                {formatVndPerM2(m.vnd_per_m2)} · độ tin cậy {confidenceWords(m).toLowerCase()} (
                {formatPercent(Math.min(m.confidence, CONFIDENCE_CAP))}) · tính đến {formatDate(m.as_of)}
              </p>
              <p className="pr-small">{m.method}</p>
              {m.methods && m.methods.length > 1 ? (
                <p className="pr-small" data-testid="print-methods">
                  {m.methods
                    .map(
                      (x) =>
                        `${METHOD_NAMES[x.method]} ${formatMoneyShort(x.vnd_per_m2)}/m² (${methodShare(x.weight)})`,
                    )
                    .join(' · ')}
                </p>
              ) : null}
              {m.excluded && m.excluded.length > 0 ? (
                <p className="pr-small">
                  Đã bỏ {m.excluded.length} giao dịch gần đó vì cần điều chỉnh vị trí quá giới hạn.
                </p>
              ) : null}
            </>
          ) : (
            <p>Chưa đủ dữ liệu giao dịch để ước tính.</p>
          )}
        </section>
        <section>
          <h2>Giá đất nhà nước {s?.year ?? ''}</h2>
          {s ? (
            <>
              <p className="pr-big">
                {formatVndPerM2(s.price_vnd_per_m2)} · <strong>{s.position}</strong>
              </p>
              <StatePriceRow s={s} compact />
              <p className="pr-small">{positionReason(s.position, s.street, facts.alley_width_m)}</p>
              {tableLine(s) ? <p className="pr-small">{tableLine(s)}</p> : null}
            </>
          ) : (
            <p>Bảng giá chưa có dòng giá cho tuyến đường này.</p>
          )}
        </section>
      </div>

      <section className="pr-planning">
        <h2>Quy hoạch</h2>
        <p>
          {planning ? planning.text : 'Chưa có thông tin quy hoạch.'}
          {zone ? ` ${zone.plan_name}, QĐ ${zone.decision_no} ngày ${formatDate(zone.approved_at)}.` : ''}
        </p>
      </section>

      {data.comparables.length > 0 ? (
        <section>
          <h2>Giao dịch so sánh (đánh số như trên bản đồ)</h2>
          <table className="pr-comps" data-testid="print-comparables">
            <thead>
              <tr>
                <th>#</th>
                <th>Ngày</th>
                <th>Giá gốc/m²</th>
                <th>Sau điều chỉnh/m²</th>
                <th>Trọng số</th>
                <th>Diện tích</th>
                <th>Cách</th>
              </tr>
            </thead>
            <tbody>
              {data.comparables.slice(0, NUMBERED).map((c, i) => (
                <tr key={c.id}>
                  <td>{i + 1}</td>
                  <td>{formatDate(c.date)}</td>
                  <td>{formatMoneyShort(c.vnd_per_m2)}</td>
                  <td>{c.adjusted_vnd_per_m2 !== undefined ? formatMoneyShort(c.adjusted_vnd_per_m2) : '—'}</td>
                  <td>{c.weight !== undefined ? weightText(c.weight) : '—'}</td>
                  <td>{formatArea(c.area_m2)}</td>
                  <td>{formatDistance(c.distance_m)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {data.comparables.length > NUMBERED ? (
            <p className="pr-small">
              Và {data.comparables.length - NUMBERED} giao dịch khác có trọng số nhỏ hơn (xem trên ứng dụng).
            </p>
          ) : null}
        </section>
      ) : null}

      {record.photos.length > 0 ? (
        <section className="pr-photos">
          {record.photos.map((p, i) => (
            <figure key={i}>
              <img src={p.thumbnail} alt={`Ảnh ${i + 1}`} />
              {p.gps ? (
                <figcaption>
                  GPS {p.gps.lat.toFixed(5)}, {p.gps.lng.toFixed(5)}
                </figcaption>
              ) : null}
            </figure>
          ))}
        </section>
      ) : null}

      <footer className="pr-foot">
        <p>
          Nguồn dữ liệu: {data.source.name} (cập nhật {formatDate(data.source.data_date)}){s ? `; ${s.source}` : ''}
          {record.planning ? `; quy hoạch: ${record.planning.data.source.name}` : ''}.
        </p>
        <p data-testid="print-disclaimer">{data.disclaimer ?? DISCLAIMER}</p>
      </footer>
    </article>
  )
}
