import { useEffect, useState } from 'react'
import { useAtomValue } from 'jotai'
import { Alert, Badge, Button, Group, Paper, Progress, Stack, Text, Title } from '@mantine/core'
import { Link } from '@tanstack/react-router'
import { IconMap, IconPlayerPause, IconPlayerPlay, IconRefresh, IconTrash, IconX } from '@tabler/icons-react'
import type { TileJson, TileLayerId } from '#core/contract/tiles.ts'
import { formatDate, formatNumber } from '../../../lib/format/format.ts'
import { useOnline } from '../../../lib/use-online.ts'
import { encodeMapHash } from '../../../lib/map-url.ts'
import { fetchTileSets } from '../../../lib/tilejson.ts'
import { isOutdated, newestDataDate, savedAreasAtom, type SavedArea } from '../areas.ts'
import { formatAge, formatBytes } from '../format.ts'
import { areaManager } from '../service.ts'
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx'

type Sets = Partial<Record<TileLayerId, TileJson>>

/** The layers' TileJSON as the server has it now (the worker answers from its copy when offline). */
export function useCurrentTileSets(): Sets | null {
  const [sets, setSets] = useState<Sets | null>(null)
  useEffect(() => {
    const ctrl = new AbortController()
    void fetchTileSets(ctrl.signal).then((s) => !ctrl.signal.aborted && setSets(s))
    return () => ctrl.abort()
  }, [])
  return sets
}

function statusBadge(a: SavedArea) {
  const [color, text] =
    a.status === 'downloading'
      ? ['sky', 'Đang tải']
      : a.status === 'paused'
        ? ['yellow', a.pausedReason === 'offline' ? 'Chờ có mạng' : 'Tạm dừng']
        : a.status === 'failed'
          ? ['red', 'Lỗi']
          : ['green', 'Đã lưu']
  return (
    <Badge color={color} variant="light" style={{ flex: 'none', textTransform: 'none' }}>
      {text}
    </Badge>
  )
}

/** Where the map opens for an area: its middle, at a zoom it was saved at. */
function mapHash(a: SavedArea): string {
  const zoom = Math.max(a.minZoom, Math.min(a.maxZoom, 16))
  return encodeMapHash({ view: { lat: (a.bbox[1] + a.bbox[3]) / 2, lng: (a.bbox[0] + a.bbox[2]) / 2, zoom } }).slice(1)
}

function AreaCard({
  area: a,
  sets,
  online,
  onDelete,
}: {
  area: SavedArea
  sets: Sets | null
  online: boolean
  onDelete: () => void
}) {
  const active = a.status === 'downloading' || a.status === 'paused'
  const savedDate = newestDataDate(a.layers)
  const serverDate = sets
    ? newestDataDate(Object.fromEntries(Object.entries(sets).map(([k, t]) => [k, { dataDate: t.data_date }])))
    : null
  const outdated = a.updatedAt !== null && sets !== null && isOutdated(a, sets)
  const share = a.total > 0 ? (a.done / a.total) * 100 : 0
  return (
    <Paper
      withBorder
      p="md"
      component="li"
      className="saved-area"
      data-testid="saved-area"
      data-status={a.status}
      aria-labelledby={`area-${a.id}`}
    >
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Title order={3} size="h5" id={`area-${a.id}`}>
            {a.name}
          </Title>
          {statusBadge(a)}
        </Group>
        <Text size="sm" c="dimmed">
          Lưu ngày {formatDate(new Date(a.createdAt).toISOString())}
          {a.updatedAt !== null ? ` · cập nhật ${formatAge(a.updatedAt)}` : ''} · mức phóng {a.minZoom}–{a.maxZoom} ·{' '}
          {formatNumber(a.total)} ô ·{' '}
          {a.status === 'done' ? formatBytes(a.bytes) : `ước tính ${formatBytes(a.estimatedBytes)}`}
        </Text>
        {savedDate ? (
          <Text size="sm" c="dimmed">
            Dữ liệu ngày {formatDate(savedDate)}
          </Text>
        ) : null}
        {outdated ? (
          <Alert color="yellow" variant="light" p="xs" data-testid="area-outdated">
            Dữ liệu đã lưu cũ hơn dữ liệu hiện có trên máy chủ{serverDate ? ` (ngày ${formatDate(serverDate)})` : ''}.
            Bấm “Cập nhật” khi có mạng.
          </Alert>
        ) : null}
        {a.status === 'done' && a.failed > 0 ? (
          <Alert color="yellow" variant="light" p="xs">
            {formatNumber(a.failed)} ô chưa tải được. Bấm “Cập nhật” để thử lại.
          </Alert>
        ) : null}
        {a.status === 'failed' && a.error ? (
          <Alert color="red" variant="light" p="xs">
            {a.error}
          </Alert>
        ) : null}
        {active ? (
          <>
            <Progress value={share} size="lg" aria-label={`Tiến độ tải ${a.name}`} />
            <Text size="sm" aria-live="polite" data-testid="area-progress">
              {formatNumber(a.done)}/{formatNumber(a.total)} ô · {formatBytes(a.bytes)}
            </Text>
          </>
        ) : null}
        <Group gap="xs" mt={4}>
          {a.status === 'downloading' ? (
            <Button
              size="sm"
              variant="default"
              leftSection={<IconPlayerPause size={18} aria-hidden />}
              onClick={() => areaManager.pause(a.id)}
            >
              Tạm dừng
            </Button>
          ) : null}
          {a.status === 'paused' || a.status === 'failed' ? (
            <Button
              size="sm"
              leftSection={<IconPlayerPlay size={18} aria-hidden />}
              disabled={!online}
              onClick={() => void areaManager.resume(a.id)}
            >
              Tiếp tục
            </Button>
          ) : null}
          {a.status === 'done' ? (
            <Button
              size="sm"
              variant="default"
              leftSection={<IconRefresh size={18} aria-hidden />}
              disabled={!online || !sets}
              onClick={() => sets && void areaManager.refresh(a.id, sets)}
            >
              Cập nhật
            </Button>
          ) : null}
          <Button
            size="sm"
            variant="default"
            component={Link}
            to="/demo"
            hash={mapHash(a)}
            leftSection={<IconMap size={18} aria-hidden />}
          >
            Xem trên bản đồ
          </Button>
          <Button
            size="sm"
            variant="subtle"
            color="red"
            leftSection={active ? <IconX size={18} aria-hidden /> : <IconTrash size={18} aria-hidden />}
            onClick={onDelete}
          >
            {active ? 'Huỷ' : 'Xoá'}
          </Button>
        </Group>
      </Stack>
    </Paper>
  )
}

/** The saved areas: what is on the device, how old, downloads in progress, refresh and delete. */
export function SavedAreasList() {
  const areas = useAtomValue(savedAreasAtom)
  const online = useOnline()
  const sets = useCurrentTileSets()
  const [deleting, setDeleting] = useState<SavedArea | null>(null)
  useEffect(() => void areaManager.reload(), [])

  return (
    <Stack gap="sm">
      {areas.length === 0 ? (
        <Text size="sm" c="dimmed">
          Chưa lưu khu vực nào. Trên bản đồ, bấm nút “Lưu khu vực offline” để tải khu vực đang xem về máy, dùng được cả
          khi không có sóng.
        </Text>
      ) : (
        <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label="Khu vực đã lưu">
          {areas.map((a) => (
            <AreaCard key={a.id} area={a} sets={sets} online={online} onDelete={() => setDeleting(a)} />
          ))}
        </Stack>
      )}
      <ConfirmDialog
        opened={deleting !== null}
        title={deleting?.status === 'done' ? 'Xoá khu vực đã lưu?' : 'Huỷ tải khu vực?'}
        confirm={deleting?.status === 'done' ? 'Xoá khu vực' : 'Huỷ và xoá'}
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          if (deleting) void areaManager.remove(deleting.id)
          setDeleting(null)
        }}
      >
        {deleting
          ? `“${deleting.name}” sẽ không còn xem được khi không có mạng. Ô bản đồ dùng chung với khu vực khác vẫn được giữ.`
          : ''}
      </ConfirmDialog>
    </Stack>
  )
}
