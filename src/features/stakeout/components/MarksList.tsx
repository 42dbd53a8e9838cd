import { useState } from 'react'
import { Button } from '@mantine/core'
import { IconTrash } from '@tabler/icons-react'
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx'
import { ExportButtons } from '../../../components/ExportButtons.tsx'
import { formatDateTime } from '../../../lib/format/format.ts'
import { formatAccuracy, formatPrecise, QUALITY_WORDS } from '../../position/index.ts'
import { marksCsv, marksDxf, marksGeoJson } from '../exports.ts'
import { markOffset, type Mark } from '../marks.ts'

const STATUS = { found: 'Đã tìm thấy mốc', lost: 'Mốc bị mất' } as const

/** The results kept on the device, newest last, with the exports and a confirmed clear. */
export function MarksList({ marks, onClear }: { marks: Mark[]; onClear: () => void }) {
  const [confirm, setConfirm] = useState(false)
  if (marks.length === 0) return null
  const base = `cam-moc-${new Date().toISOString().slice(0, 10)}`
  return (
    <section className="so-results" aria-label="Kết quả cắm mốc">
      <h2>Kết quả đã ghi ({marks.length})</h2>
      <ol className="so-result-list" data-testid="stakeout-results">
        {marks.map((m) => {
          const o = markOffset(m)
          return (
            <li key={m.id} data-status={m.status}>
              <strong>
                {m.target.label}: {STATUS[m.status]}
              </strong>
              {o && m.measured ? (
                <span>
                  {' '}
                  — lệch {formatPrecise(o.d)} so với toạ độ ghi, {formatAccuracy(m.measured.accuracyM)},{' '}
                  {QUALITY_WORDS[m.measured.quality]}
                  {m.measured.samples > 1 ? `, trung bình ${m.measured.samples} lần` : ''}
                </span>
              ) : null}
              <span className="so-dim">
                {' '}
                · {formatDateTime(m.at)}
                {m.photoId ? ' · có ảnh' : ''}
                {m.note ? ` · ${m.note}` : ''}
              </span>
            </li>
          )
        })}
      </ol>
      <ExportButtons
        base={base}
        what="kết quả cắm mốc"
        files={[
          { format: 'csv', build: () => marksCsv(marks) },
          { format: 'geojson', build: () => marksGeoJson(marks) },
          { format: 'dxf', build: () => marksDxf(marks) },
        ]}
      >
        <Button
          variant="subtle"
          color="red"
          leftSection={<IconTrash size={18} aria-hidden />}
          onClick={() => setConfirm(true)}
        >
          Xoá kết quả
        </Button>
      </ExportButtons>
      <ConfirmDialog
        opened={confirm}
        title="Xoá mọi kết quả cắm mốc trên máy?"
        confirm="Xoá kết quả"
        onCancel={() => setConfirm(false)}
        onConfirm={() => {
          setConfirm(false)
          onClear()
        }}
      >
        Hãy tải CSV, GeoJSON hoặc DXF trước nếu còn cần. Ảnh đã xếp hàng vẫn được gửi.
      </ConfirmDialog>
    </section>
  )
}
