import { useEffect, useRef, useState } from 'react'
import { useAtomValue } from 'jotai'
import { ActionIcon, Button, Group } from '@mantine/core'
import {
  IconBookmarks,
  IconCheck,
  IconDeviceFloppy,
  IconLine,
  IconMagnet,
  IconMagnetOff,
  IconPolygon,
  IconTrash,
  IconX,
} from '@tabler/icons-react'
import type OlMap from 'ol/Map'
import { formatMeasureLength } from '../../../lib/geo/measure-format.ts'
import { store } from '../../../lib/store.ts'
import { createMeasure, type MeasureController, type MeasureKind, type Measurement } from '../engine/measure.ts'
import type { SnapTarget } from '../engine/measure-snap.ts'
import { defaultName, loadSavedMeasures, saveMeasure, savedMeasuresAtom } from '../saved-measures.ts'
import { MeasureNameForm } from './MeasureNameForm.tsx'
import { SavedMeasuresDialog } from './SavedMeasuresDialog.tsx'

const SNAPPED = { corner: 'Bám góc thửa', edge: 'Bám cạnh thửa' } as const

/**
 * Measure length and area: pick a kind, tap points on the map (they land on a parcel's corner or side
 * when near one, unless snapping is off), finish; drag a vertex to adjust. A finished measurement can
 * be named and kept on the device. Loaded only when the user opens it.
 */
export default function MeasurePanel(props: { map: OlMap; onClose: () => void }) {
  const ctrl = useRef<MeasureController | null>(null)
  const panel = useRef<HTMLElement>(null)
  const [kind, setKind] = useState<MeasureKind | null>('area')
  const [list, setList] = useState<Measurement[]>([])
  const [drawing, setDrawing] = useState<string | null>(null)
  const [snapping, setSnapping] = useState(true)
  const [snapped, setSnapped] = useState<SnapTarget | null>(null)
  const [naming, setNaming] = useState(false)
  const [keptIds, setKeptIds] = useState<ReadonlySet<number>>(new Set())
  const [listOpen, setListOpen] = useState(false)
  const saved = useAtomValue(savedMeasuresAtom)

  useEffect(() => {
    void loadSavedMeasures(store)
    const m = createMeasure(
      props.map,
      (l, d) => {
        setList(l)
        setDrawing(d)
      },
      setSnapped,
    )
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
  const toggleSnap = () => {
    ctrl.current?.setSnapping(!snapping)
    setSnapping(!snapping)
  }

  const last = list.at(-1)
  const save = (name: string) => {
    if (!last) return
    setNaming(false)
    setKeptIds(new Set([...keptIds, last.id]))
    const { id: _drawn, ...figures } = last
    void saveMeasure(store, { ...figures, id: crypto.randomUUID(), name, at: Date.now() })
  }
  const canSave = !drawing && last !== undefined && !keptIds.has(last.id)
  // Compact so the map stays in view, and only the buttons take taps: a tap on the panel's text lands on the map.
  return (
    <section
      ref={panel}
      className="qh-measure qh-floating qh-panel"
      aria-label="Đo khoảng cách và diện tích"
      data-testid="measure-panel"
    >
      <h2 className="visually-hidden">Đo trên bản đồ</h2>
      <Group gap={4} wrap="nowrap">
        <Button
          size="sm"
          variant={kind === 'length' ? 'filled' : 'default'}
          aria-pressed={kind === 'length'}
          className="qh-measure-kind"
          onClick={() => choose('length')}
          leftSection={<IconLine size={18} aria-hidden />}
        >
          Chiều dài
        </Button>
        <Button
          size="sm"
          variant={kind === 'area' ? 'filled' : 'default'}
          aria-pressed={kind === 'area'}
          className="qh-measure-kind"
          onClick={() => choose('area')}
          leftSection={<IconPolygon size={18} aria-hidden />}
        >
          Diện tích
        </Button>
        <ActionIcon
          size={36}
          variant={snapping ? 'light' : 'default'}
          ml="auto"
          onClick={toggleSnap}
          aria-pressed={snapping}
          aria-label="Bám góc và cạnh thửa"
          title={snapping ? 'Đang bám góc và cạnh thửa: chạm để tắt' : 'Không bám thửa: chạm để bật'}
          data-testid="measure-snap"
        >
          {snapping ? <IconMagnet size={18} aria-hidden /> : <IconMagnetOff size={18} aria-hidden />}
        </ActionIcon>
        <ActionIcon size={36} variant="default" onClick={props.onClose} aria-label="Xong" title="Xong">
          <IconX size={18} aria-hidden />
        </ActionIcon>
      </Group>
      {snapped && (
        <p className="qh-measure-snapped" data-testid="measure-snapped" aria-hidden>
          {SNAPPED[snapped]}
        </p>
      )}
      {naming && last ? (
        <MeasureNameForm
          initial={defaultName(last.kind, saved ?? [])}
          label="Tên phép đo"
          submit="Lưu"
          onSubmit={save}
          onCancel={() => setNaming(false)}
        />
      ) : (
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
              {keptIds.has(last.id) && <p className="qh-measure-note">Đã lưu trên máy.</p>}
            </>
          ) : (
            <p className="qh-measure-note">
              Chạm để thêm điểm; chạm lại điểm cuối{kind === 'area' ? ' hoặc điểm đầu' : ''} để kết thúc; kéo đỉnh để
              sửa. Hình đo còn lại tới khi “Xoá hết”.
            </p>
          )}
        </div>
      )}
      {list.length > 1 && (
        <ol className="qh-measure-earlier" aria-label="Các phép đo trước">
          {list.slice(0, -1).map((m) => (
            <li key={m.id}>{m.text}</li>
          ))}
        </ol>
      )}
      {!naming && (drawing || list.length > 0 || (saved?.length ?? 0) > 0) && (
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
          {canSave && (
            <Button
              size="sm"
              onClick={() => setNaming(true)}
              leftSection={<IconDeviceFloppy size={18} aria-hidden />}
              data-testid="measure-save"
            >
              Lưu
            </Button>
          )}
          {(saved?.length ?? 0) > 0 && (
            <Button
              size="sm"
              variant="default"
              onClick={() => setListOpen(true)}
              leftSection={<IconBookmarks size={18} aria-hidden />}
              data-testid="measure-saved-open"
            >
              Đã lưu ({saved?.length})
            </Button>
          )}
          {(drawing || list.length > 0) && (
            <Button
              size="sm"
              variant="default"
              onClick={() => ctrl.current?.clear()}
              leftSection={<IconTrash size={18} aria-hidden />}
            >
              Xoá hết
            </Button>
          )}
        </Group>
      )}
      <SavedMeasuresDialog
        opened={listOpen}
        onClose={() => setListOpen(false)}
        onShow={(m) => {
          setListOpen(false)
          // Framed above the panel, which covers the map's lower part.
          const mapBottom = props.map.getTargetElement()?.getBoundingClientRect().bottom ?? 0
          const panelTop = panel.current?.getBoundingClientRect().top ?? mapBottom
          const shown = ctrl.current?.show(m.kind, m.points, Math.max(0, mapBottom - panelTop))
          if (shown !== undefined) setKeptIds(new Set([...keptIds, shown]))
        }}
      />
    </section>
  )
}
