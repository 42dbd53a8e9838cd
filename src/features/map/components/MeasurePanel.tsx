import { useEffect, useRef, useState } from 'react'
import { Button, Group } from '@mantine/core'
import { IconCheck, IconLine, IconPolygon, IconTrash, IconX } from '@tabler/icons-react'
import type OlMap from 'ol/Map'
import { formatMeasureLength } from '../../../lib/geo/measure-format.ts'
import { createMeasure, type MeasureController, type MeasureKind, type Measurement } from '../engine/measure.ts'

/**
 * Measure length and area: pick a kind, tap points on the map, finish; drag a vertex to adjust.
 * Loaded only when the user opens it.
 */
export default function MeasurePanel(props: { map: OlMap; onClose: () => void }) {
  const ctrl = useRef<MeasureController | null>(null)
  const [kind, setKind] = useState<MeasureKind | null>('area')
  const [list, setList] = useState<Measurement[]>([])
  const [drawing, setDrawing] = useState<string | null>(null)

  useEffect(() => {
    const m = createMeasure(props.map, (l, d) => {
      setList(l)
      setDrawing(d)
    })
    ctrl.current = m
    m.start('area')
    return () => {
      m.dispose()
      ctrl.current = null
    }
  }, [props.map])

  const choose = (k: MeasureKind) => {
    setKind(k)
    ctrl.current?.start(k)
  }

  const last = list.at(-1)
  return (
    <section
      className="qh-measure qh-floating qh-panel"
      aria-label="Đo khoảng cách và diện tích"
      data-testid="measure-panel"
    >
      <h2>Đo trên bản đồ</h2>
      <Group gap={6} wrap="nowrap">
        <Button
          size="sm"
          variant={kind === 'length' ? 'filled' : 'default'}
          aria-pressed={kind === 'length'}
          onClick={() => choose('length')}
          leftSection={<IconLine size={18} aria-hidden />}
        >
          Chiều dài
        </Button>
        <Button
          size="sm"
          variant={kind === 'area' ? 'filled' : 'default'}
          aria-pressed={kind === 'area'}
          onClick={() => choose('area')}
          leftSection={<IconPolygon size={18} aria-hidden />}
        >
          Diện tích
        </Button>
      </Group>
      <p style={{ margin: '8px 0', fontSize: 13 }}>
        Chạm để thêm điểm; chạm lại điểm cuối{kind === 'area' ? ' hoặc điểm đầu' : ''} để kết thúc. Kéo một đỉnh để sửa.
        Hình đã đo vẫn hiện sau khi bấm “Xong”, tới khi “Xoá hết”.
      </p>
      <div role="status" aria-live="polite">
        {drawing ? (
          <div className="qh-value" data-testid="measure-drawing">
            {drawing}
          </div>
        ) : last ? (
          <>
            <div className="qh-value" data-testid="measure-result">
              {last.text}
            </div>
            {last.sides.length > 1 ? (
              <p style={{ margin: '2px 0 0', fontSize: 13 }} data-testid="measure-sides">
                Các cạnh: {last.sides.map((m) => formatMeasureLength(m)).join(' · ')}
              </p>
            ) : null}
          </>
        ) : (
          <div>Chưa có phép đo.</div>
        )}
      </div>
      {list.length > 1 && (
        <ol style={{ margin: '6px 0 0', paddingLeft: 20, fontSize: 13 }}>
          {list.slice(0, -1).map((m) => (
            <li key={m.id}>{m.text}</li>
          ))}
        </ol>
      )}
      <Group gap={6} mt="sm" wrap="wrap">
        {drawing && (
          <Button
            size="sm"
            variant="default"
            onClick={() => ctrl.current?.finish()}
            leftSection={<IconCheck size={18} aria-hidden />}
          >
            Kết thúc hình
          </Button>
        )}
        <Button
          size="sm"
          variant="default"
          onClick={() => ctrl.current?.clear()}
          leftSection={<IconTrash size={18} aria-hidden />}
          disabled={list.length === 0 && !drawing}
        >
          Xoá hết
        </Button>
        <Button size="sm" variant="default" onClick={props.onClose} leftSection={<IconX size={18} aria-hidden />}>
          Xong
        </Button>
      </Group>
    </section>
  )
}
