import '@mantine/core/styles/ModalBase.css'
import '@mantine/core/styles/Modal.css'
import '@mantine/core/styles/Overlay.css'
import { useState } from 'react'
import { useAtomValue } from 'jotai'
import { Button, Group, Modal } from '@mantine/core'
import { IconArrowBackUp, IconEye, IconPencil, IconTrash } from '@tabler/icons-react'
import { ExportButtons } from '../../../components/ExportButtons.tsx'
import { formatDateTime } from '../../../lib/format/format.ts'
import { store } from '../../../lib/store.ts'
import { measuresCsv, measuresDxf, measuresGeoJson } from '../measure-exports.ts'
import { removeMeasure, saveMeasure, savedMeasuresAtom, type SavedMeasure } from '../saved-measures.ts'
import { MeasureNameForm } from './MeasureNameForm.tsx'

/**
 * The measurements kept on this device: each with its name, figure and date, shown again on the map,
 * renamed, or deleted (undone from the line that says so); all of them exported as GeoJSON, CSV or DXF.
 */
export function SavedMeasuresDialog(props: {
  opened: boolean
  onClose: () => void
  onShow: (m: SavedMeasure) => void
}) {
  const saved = useAtomValue(savedMeasuresAtom) ?? []
  const [renaming, setRenaming] = useState<string | null>(null)
  const [deleted, setDeleted] = useState<SavedMeasure | null>(null)
  const base = `phep-do-${new Date().toISOString().slice(0, 10)}`
  const remove = (m: SavedMeasure) => {
    setDeleted(m)
    void removeMeasure(store, m.id)
  }
  return (
    <Modal
      opened={props.opened}
      onClose={props.onClose}
      title="Phép đo đã lưu trên máy"
      closeButtonProps={{ 'aria-label': 'Đóng' }}
    >
      {deleted && (
        <p className="qh-measure-undo" role="status" data-testid="measure-deleted">
          Đã xoá “{deleted.name}”.{' '}
          <Button
            size="compact-sm"
            variant="default"
            leftSection={<IconArrowBackUp size={16} aria-hidden />}
            onClick={() => {
              void saveMeasure(store, deleted)
              setDeleted(null)
            }}
            data-testid="measure-undo"
          >
            Hoàn tác
          </Button>
        </p>
      )}
      {saved.length === 0 ? (
        <p className="qh-measure-note">Chưa có phép đo nào được lưu. Đo xong một hình, chọn “Lưu” để giữ lại.</p>
      ) : (
        <ul className="qh-saved-measures" data-testid="saved-measures">
          {saved.map((m) => (
            <li key={m.id} data-testid="saved-measure">
              {renaming === m.id ? (
                <MeasureNameForm
                  initial={m.name}
                  label="Tên mới"
                  submit="Đổi tên"
                  onCancel={() => setRenaming(null)}
                  onSubmit={(name) => {
                    setRenaming(null)
                    void saveMeasure(store, { ...m, name })
                  }}
                />
              ) : (
                <>
                  <strong data-testid="saved-measure-name">{m.name}</strong>
                  <span className="qh-value-sm">{m.text}</span>
                  <span className="qh-dim">Lưu lúc {formatDateTime(m.at)}</span>
                  <Group gap={6} mt={4}>
                    <Button
                      size="compact-sm"
                      variant="default"
                      leftSection={<IconEye size={16} aria-hidden />}
                      onClick={() => props.onShow(m)}
                      aria-label={`Xem “${m.name}” trên bản đồ`}
                    >
                      Xem
                    </Button>
                    <Button
                      size="compact-sm"
                      variant="default"
                      leftSection={<IconPencil size={16} aria-hidden />}
                      onClick={() => setRenaming(m.id)}
                      aria-label={`Đổi tên “${m.name}”`}
                    >
                      Đổi tên
                    </Button>
                    <Button
                      size="compact-sm"
                      variant="subtle"
                      color="red"
                      leftSection={<IconTrash size={16} aria-hidden />}
                      onClick={() => remove(m)}
                      aria-label={`Xoá “${m.name}”`}
                    >
                      Xoá
                    </Button>
                  </Group>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
      {saved.length > 0 && (
        <ExportButtons
          base={base}
          what="các phép đo đã lưu"
          variant="default"
          mt="md"
          files={[
            { format: 'geojson', build: () => measuresGeoJson(saved) },
            { format: 'csv', build: () => measuresCsv(saved) },
            { format: 'dxf', build: () => measuresDxf(saved) },
          ]}
        />
      )}
    </Modal>
  )
}
