import type { PlanningData } from '#core/contract/lookups.ts'
import { formatDateTime } from '../../../lib/format/format.ts'
import { crsLabel, outerRing, outlineOf } from '../../sketch/index.ts'

const metres = new Intl.NumberFormat('vi-VN', { minimumFractionDigits: 2, maximumFractionDigits: 2 })

/**
 * What only the printed planning card carries beyond the card on screen: its heading with the time it
 * was printed, and the parcel's corners in VN-2000 (the certificate's table). Hidden on screen; the
 * print stylesheet (map.css) shows it with the card and the map extract, on one A4 page.
 */
export function PrintCardHead({ at }: { at: number }) {
  return (
    <header className="qh-print-only qh-print-head">
      <strong>Phiếu thông tin quy hoạch — Quy hoạch VN</strong>
      <span>
        In lúc {formatDateTime(at)}. Thông tin tham khảo; không thay thế văn bản cung cấp thông tin quy hoạch.
      </span>
    </header>
  )
}

export function PrintCorners({ result }: { result: PlanningData }) {
  const ring = result.parcel ? outerRing(result.parcel.geometry) : null
  const outline = ring && outlineOf(ring, result.location.vn2000.zone_meridian)
  if (!outline) return null
  return (
    <section className="qh-print-only" data-testid="print-corners">
      <h3>Toạ độ góc thửa ({crsLabel(outline.meridian)})</h3>
      <table className="qh-print-table">
        <thead>
          <tr>
            <th scope="col">Điểm</th>
            <th scope="col">X (m)</th>
            <th scope="col">Y (m)</th>
            <th scope="col">Cạnh tới điểm sau (m)</th>
          </tr>
        </thead>
        <tbody>
          {outline.corners.map((c, i) => (
            <tr key={c.n}>
              <th scope="row">{c.n}</th>
              <td>{metres.format(c.x)}</td>
              <td>{metres.format(c.y)}</td>
              <td>{metres.format(outline.edges[i]!.lengthM)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  )
}
