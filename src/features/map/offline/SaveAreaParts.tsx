import '@mantine/core/styles/Progress.css'
import { Button, Group, Progress, Text } from '@mantine/core'
import { Link } from '@tanstack/react-router'
import { IconPlayerPause, IconPlayerPlay, IconX } from '@tabler/icons-react'
import { formatNumber } from '../../../lib/format/format.ts'
import { areaManager, formatBytes, type SavedArea } from '../../offline/index.ts'

/** A started area's download: its progress, pause, resume and cancel. */
export function AreaProgress({ area }: { area: SavedArea }) {
  const share = area.total > 0 ? (area.done / area.total) * 100 : 0
  return (
    <div data-testid="save-area-progress" data-status={area.status}>
      <Text size="sm" fw={600}>
        {area.status === 'done'
          ? `Đã lưu ${formatNumber(area.total)} ô (${formatBytes(area.bytes)}).${area.failed > 0 ? ` ${formatNumber(area.failed)} ô chưa tải được.` : ''}`
          : area.status === 'paused'
            ? area.pausedReason === 'offline'
              ? 'Mất mạng: tạm dừng, sẽ tự tiếp tục khi có mạng.'
              : 'Đã tạm dừng.'
            : area.status === 'failed'
              ? (area.error ?? 'Tải về bị lỗi.')
              : 'Đang tải về…'}
      </Text>
      {area.status !== 'done' ? <Progress value={share} size="lg" my={6} aria-label="Tiến độ tải khu vực" /> : null}
      <Text size="sm" aria-live="polite">
        {formatNumber(area.done)}/{formatNumber(area.total)} ô · {formatBytes(area.bytes)}
      </Text>
      <Group gap="xs" mt="xs">
        {area.status === 'downloading' ? (
          <Button
            size="xs"
            variant="default"
            leftSection={<IconPlayerPause size={16} aria-hidden />}
            onClick={() => areaManager.pause(area.id)}
          >
            Tạm dừng
          </Button>
        ) : null}
        {area.status === 'paused' || area.status === 'failed' ? (
          <Button
            size="xs"
            leftSection={<IconPlayerPlay size={16} aria-hidden />}
            onClick={() => void areaManager.resume(area.id)}
          >
            Tiếp tục
          </Button>
        ) : null}
        {area.status !== 'done' ? (
          <Button
            size="xs"
            variant="subtle"
            color="red"
            leftSection={<IconX size={16} aria-hidden />}
            onClick={() => void areaManager.remove(area.id)}
          >
            Huỷ
          </Button>
        ) : null}
        <Button size="xs" variant="subtle" component={Link} to="/offline">
          Các khu vực đã lưu
        </Button>
      </Group>
    </div>
  )
}

/** The zooms to save, from and to (each kept on its side of the other). */
export function ZoomRange({
  from,
  to,
  last,
  onFrom,
  onTo,
}: {
  from: number
  to: number
  last: number
  onFrom: (z: number) => void
  onTo: (z: number) => void
}) {
  const zoomOptions = Array.from({ length: last - 10 + 1 }, (_, i) => 10 + i)
  return (
    <div className="save-area-zooms" style={{ marginTop: 6 }}>
      <label>
        Từ mức phóng
        <select
          value={from}
          onChange={(e) => onFrom(Math.min(Number(e.currentTarget.value), to))}
          data-testid="save-area-from"
        >
          {zoomOptions.map((z) => (
            <option key={z} value={z}>
              {z}
            </option>
          ))}
        </select>
      </label>
      <label>
        đến mức
        <select
          value={to}
          onChange={(e) => onTo(Math.max(Number(e.currentTarget.value), from))}
          data-testid="save-area-to"
        >
          {zoomOptions.map((z) => (
            <option key={z} value={z}>
              {z}
            </option>
          ))}
        </select>
      </label>
    </div>
  )
}

/** What saving the area takes (tiles, estimated bytes, free space) and why it cannot start now. */
export function AreaFacts({
  count,
  estimate,
  free,
  noLayers,
  tooBig,
  maxTiles,
  online,
}: {
  count: number
  estimate: number | null
  free: number | null
  noLayers: boolean
  tooBig: boolean
  maxTiles: number
  online: boolean
}) {
  return (
    <>
      <dl className="save-area-facts">
        <dt>Số ô bản đồ</dt>
        <dd data-testid="save-area-count">{formatNumber(count)} (nền, quy hoạch, thửa đất)</dd>
        <dt>Dung lượng ước tính</dt>
        <dd data-testid="save-area-estimate">
          {estimate === null ? 'đang ước tính…' : `khoảng ${formatBytes(estimate)}`}
        </dd>
        {free !== null ? (
          <>
            <dt>Còn trống</dt>
            <dd>khoảng {formatBytes(free)}</dd>
          </>
        ) : null}
      </dl>
      {noLayers ? (
        <Text size="sm" c="red">
          Chưa đọc được thông tin các lớp bản đồ; cần có mạng để lưu khu vực.
        </Text>
      ) : null}
      {tooBig ? (
        <Text size="sm" c="red">
          Khu vực quá lớn: hãy thu nhỏ khung hoặc bớt mức phóng (tối đa {formatNumber(maxTiles)} ô).
        </Text>
      ) : null}
      {estimate !== null && free !== null && estimate > free ? (
        <Text size="sm" c="red">
          Máy không đủ chỗ cho khu vực này.
        </Text>
      ) : null}
      {!online ? (
        <Text size="sm" c="orange">
          Cần có mạng để tải khu vực về.
        </Text>
      ) : null}
    </>
  )
}
