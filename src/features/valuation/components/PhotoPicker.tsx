import { useEffect, useRef, useState, type ChangeEvent } from 'react'
import { useAtom } from 'jotai'
import {
  ActionIcon,
  Alert,
  Button,
  Group,
  Paper,
  Progress,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Title,
} from '@mantine/core'
import {
  IconAlertTriangle,
  IconArrowLeft,
  IconArrowRight,
  IconCamera,
  IconPhotoPlus,
  IconRefresh,
  IconX,
} from '@tabler/icons-react'
import { errorTexts } from '../../../lib/errors.ts'
import { MAX_PHOTOS } from '../../../lib/images/limits.ts'
import { draftAtom, photosAtom } from '../atoms.ts'
import { addPhotoFiles, uploadPending, type ValuationDeps } from '../flow.ts'
import { movePhoto, removePhoto, type PhotoItem } from '../photos.ts'

/** An object URL for the photo's blob while it is shown, released afterwards. */
function usePhotoUrl(photo: PhotoItem): string {
  const [url, setUrl] = useState('')
  useEffect(() => {
    if (!photo.blob) return setUrl(photo.thumbnail)
    const u = URL.createObjectURL(photo.blob)
    setUrl(u)
    return () => URL.revokeObjectURL(u)
  }, [photo.blob, photo.thumbnail])
  return url
}

function statusText(p: PhotoItem): string {
  switch (p.status) {
    case 'processing':
      return 'Đang xử lý ảnh…'
    case 'ready':
      return 'Đang chờ gửi'
    case 'uploading':
      return `Đang tải lên ${Math.round(p.progress * 100)}%`
    case 'uploaded':
      return 'Đã tải lên'
    case 'failed':
      return p.error ?? 'Tải lên không thành công'
  }
}

function PhotoTile(props: {
  photo: PhotoItem
  index: number
  count: number
  onMove: (d: -1 | 1) => void
  onRemove: () => void
  onRetry: () => void
}) {
  const { photo, index, count } = props
  const url = usePhotoUrl(photo)
  const n = index + 1
  return (
    <figure
      className="photo-tile"
      data-testid="photo-tile"
      data-status={photo.status}
      aria-label={`Ảnh ${n}: ${photo.name}`}
    >
      <div className="photo-tile-frame">{url ? <img src={url} alt={`Ảnh ${n}: ${photo.name}`} /> : null}</div>
      <figcaption>
        <Text size="xs" c={photo.status === 'failed' ? 'red' : 'dimmed'} lineClamp={2} aria-live="polite">
          {statusText(photo)}
        </Text>
        {photo.status === 'uploading' ? (
          <Progress value={photo.progress * 100} size="sm" aria-label={`Tiến độ tải ảnh ${n}`} />
        ) : null}
        {photo.gps ? (
          <Text size="xs" c="dimmed">
            GPS: {photo.gps.lat.toFixed(5)}, {photo.gps.lng.toFixed(5)}
          </Text>
        ) : null}
        <Group gap={4} justify="center" wrap="nowrap">
          <ActionIcon
            variant="default"
            data-photo-key={photo.key}
            data-action="prev"
            aria-label={`Đưa ảnh ${n} lên trước`}
            disabled={index === 0}
            onClick={() => props.onMove(-1)}
          >
            <IconArrowLeft size={18} aria-hidden />
          </ActionIcon>
          <ActionIcon
            variant="default"
            data-photo-key={photo.key}
            data-action="next"
            aria-label={`Đưa ảnh ${n} ra sau`}
            disabled={index === count - 1}
            onClick={() => props.onMove(1)}
          >
            <IconArrowRight size={18} aria-hidden />
          </ActionIcon>
          {photo.status === 'failed' ? (
            <ActionIcon variant="default" aria-label={`Gửi lại ảnh ${n}`} onClick={props.onRetry}>
              <IconRefresh size={18} aria-hidden />
            </ActionIcon>
          ) : null}
          <ActionIcon
            variant="default"
            color="red"
            data-action="remove"
            aria-label={`Bỏ ảnh ${n}`}
            onClick={props.onRemove}
          >
            <IconX size={18} aria-hidden />
          </ActionIcon>
        </Group>
      </figcaption>
    </figure>
  )
}

/** Photos of the property: take or pick, preview, reorder, remove; at most 4, each sent with its own progress. */
export function PhotoPicker({ deps }: { deps: ValuationDeps }) {
  const [photos, setPhotos] = useAtom(photosAtom)
  const [draft, setDraft] = useAtom(draftAtom)
  const [messages, setMessages] = useState<string[]>([])
  const cameraInput = useRef<HTMLInputElement>(null)
  const libraryInput = useRef<HTMLInputElement>(null)
  const grid = useRef<HTMLDivElement>(null)
  const cameraButton = useRef<HTMLButtonElement>(null)

  async function onFiles(e: ChangeEvent<HTMLInputElement>) {
    const files = Array.from(e.currentTarget.files ?? [])
    // Cleared so picking the same file again still fires a change.
    e.currentTarget.value = ''
    if (files.length === 0) return
    setMessages([])
    setMessages(await addPhotoFiles(deps, files, setMessages))
  }

  function open(input: HTMLInputElement | null) {
    if (photos.length >= MAX_PHOTOS) return setMessages([errorTexts.MAX_FILE])
    setMessages([])
    input?.click()
  }

  function move(key: string, delta: -1 | 1) {
    setPhotos((list) => movePhoto(list, key, delta))
    // Moving the tile re-inserts its buttons; keep the keyboard focus on the button just used, or its neighbour at an end.
    requestAnimationFrame(() => {
      const root = grid.current
      const action = delta < 0 ? 'prev' : 'next'
      const same = root?.querySelector<HTMLButtonElement>(`[data-photo-key="${key}"][data-action="${action}"]`)
      const other = root?.querySelector<HTMLButtonElement>(
        `[data-photo-key="${key}"][data-action="${delta < 0 ? 'next' : 'prev'}"]`,
      )
      ;(same && !same.disabled ? same : other)?.focus()
    })
  }

  function remove(key: string, index: number) {
    setPhotos((list) => removePhoto(list, key))
    // The focused button is gone with its photo: move to the photo now in its place, else to "Chụp ảnh".
    requestAnimationFrame(() => {
      const buttons = grid.current?.querySelectorAll<HTMLButtonElement>('[data-action="remove"]') ?? []
      ;(buttons[Math.min(index, buttons.length - 1)] ?? cameraButton.current)?.focus()
    })
  }

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="photos-title">
      <Stack gap="sm">
        <Group justify="space-between" align="baseline">
          <Title order={2} size="h4" id="photos-title">
            3. Hình ảnh
          </Title>
          <Text size="sm" c="dimmed">
            {photos.length}/{MAX_PHOTOS} ảnh
          </Text>
        </Group>
        <Group gap="xs">
          <Button
            ref={cameraButton}
            leftSection={<IconCamera size={20} aria-hidden />}
            onClick={() => open(cameraInput.current)}
          >
            Chụp ảnh
          </Button>
          <Button
            variant="light"
            leftSection={<IconPhotoPlus size={20} aria-hidden />}
            onClick={() => open(libraryInput.current)}
          >
            Chọn ảnh có sẵn
          </Button>
        </Group>
        <input
          ref={cameraInput}
          type="file"
          accept="image/*"
          capture="environment"
          multiple
          hidden
          data-testid="photo-input"
          onChange={(e) => void onFiles(e)}
        />
        <input
          ref={libraryInput}
          type="file"
          accept="image/*"
          multiple
          hidden
          data-testid="photo-library-input"
          onChange={(e) => void onFiles(e)}
        />
        <Switch
          checked={draft.keepGps}
          onChange={(e) => {
            const keepGps = e.currentTarget.checked
            setDraft((d) => ({ ...d, keepGps }))
          }}
          label="Giữ vị trí GPS"
          description={
            draft.keepGps
              ? 'Vị trí chụp (nếu ảnh có) được ghi kèm ảnh trong báo cáo. Tệp ảnh gửi đi vẫn không mang siêu dữ liệu.'
              : 'Tắt: vị trí chụp bị loại bỏ, ảnh gửi đi không mang siêu dữ liệu nào.'
          }
        />
        {messages.length > 0 ? (
          <Alert
            color="red"
            variant="light"
            icon={<IconAlertTriangle size={20} aria-hidden />}
            role="alert"
            data-testid="photo-messages"
          >
            <Stack gap={2}>
              {messages.map((m) => (
                <Text key={m} size="sm">
                  {m}
                </Text>
              ))}
            </Stack>
          </Alert>
        ) : null}
        {photos.length > 0 ? (
          <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm" ref={grid}>
            {photos.map((p, i) => (
              <PhotoTile
                key={p.key}
                photo={p}
                index={i}
                count={photos.length}
                onMove={(d) => move(p.key, d)}
                onRemove={() => remove(p.key, i)}
                onRetry={() => void uploadPending(deps)}
              />
            ))}
          </SimpleGrid>
        ) : (
          <Text size="sm" c="dimmed">
            Ảnh mặt tiền, hẻm và bên trong giúp báo cáo rõ ràng hơn. Ảnh được thu nhỏ (tối đa 2048 px) trên máy trước
            khi gửi.
          </Text>
        )}
      </Stack>
    </Paper>
  )
}
