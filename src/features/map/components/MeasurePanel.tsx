import { useEffect, useRef, useState } from 'react'
import { ActionIcon, Button, Group } from '@mantine/core'
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
  // Compact so the map stays in view, and only the buttons take taps: a tap on the panel's text lands on the map.
  return (
    <section
      className="qh-measure qh-floating qh-panel"
      aria-label="Đo khoảng cách và diện tích"
      data-testid="measure-panel"
    >
      <h2 className="visually-hidden">Đo trên bản đồ</h2>
      <Group gap={6} wrap="nowrap">
        <Button
          size="sm"
          px={10}
          variant={kind === 'length' ? 'filled' : 'default'}
          aria-pressed={kind === 'length'}
          onClick={() => choose('length')}
          leftSection={<IconLine size={18} aria-hidden />}
        >
          Chiều dài
        </Button>
        <Button
          size="sm"
          px={10}
          variant={kind === 'area' ? 'filled' : 'default'}
          aria-pressed={kind === 'area'}
          onClick={() => choose('area')}
          leftSection={<IconPolygon size={18} aria-hidden />}
        >
          Diện tích
        </Button>
        <ActionIcon size={36} variant="default" ml="auto" onClick={props.onClose} aria-label="Xong" title="Xong">
          <IconX size={18} aria-hidden />
        </ActionIcon>
      </Group>
      <div role="status" aria-live="polite" className="qh-measure-status">
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
              <p className="qh-measure-note" data-testid="measure-sides">
                Các cạnh: {last.sides.map((m) => formatMeasureLength(m)).join(' · ')}
              </p>
            ) : null}
          </>
        ) : (
          <p className="qh-measure-note">
            Chạm để thêm điểm; chạm lại điểm cuối{kind === 'area' ? ' hoặc điểm đầu' : ''} để kết thúc; kéo đỉnh để sửa.
            Hình đo còn lại tới khi “Xoá hết”.
          </p>
        )}
      </div>
      {list.length > 1 && (
        <ol className="qh-measure-earlier" aria-label="Các phép đo trước">
          {list.slice(0, -1).map((m) => (
            <li key={m.id}>{m.text}</li>
          ))}
        </ol>
      )}
      {(drawing || list.length > 0) && (
        <Group gap={6} mt={6} wrap="wrap">
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
          >
            Xoá hết
          </Button>
        </Group>
      )}
    </section>
  )
}
