import { useEffect, useState } from 'react'
import { useSetAtom, useStore } from 'jotai'
import { Badge, Button, Group, Paper, SegmentedControl, Stack, Text } from '@mantine/core'
import { useNavigate } from '@tanstack/react-router'
import { IconChevronDown, IconChevronUp, IconMap, IconRuler2, IconTrash } from '@tabler/icons-react'
import { formatArea, formatDate, formatDateTime, formatMoneyShort, formatNumber } from '../../../lib/format/format.ts'
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx'
import { encodeMapHash } from '../../../lib/map-url.ts'
import { historyFocusAtom } from '../focus.ts'
import { clear, list, remove, subscribeHistory, type HistoryEntry, type HistoryKind } from '../history.ts'
import { deviceStorageTexts } from '#core/messages.ts'
import { pushToast } from '../../notifications/index.ts'

function useHistory(): HistoryEntry[] | null {
  const [entries, setEntries] = useState<HistoryEntry[] | null>(null)
  const store = useStore()
  useEffect(() => {
    let alive = true
    const load = () =>
      void list().then(
        (rows) => alive && setEntries(rows),
        () => {
          pushToast(store, 'warning', deviceStorageTexts.HISTORY_UNAVAILABLE)
          if (alive) setEntries([])
        },
      )
    load()
    const stop = subscribeHistory(load)
    return () => {
      alive = false
      stop()
    }
  }, [store])
  return entries
}

/** The stored planning result in short: what a surveyor checks on site. */
function PlanningDetails({ entry }: { entry: HistoryEntry<'planning'> }) {
  const { parcel, zones, road_reserves, source } = entry.result
  const reserved = road_reserves.reduce((s, r) => s + r.affected_area_m2, 0)
  return (
    <Stack gap={2} mt={4} data-testid="history-details">
      <Text size="sm">
        {parcel
          ? `Diện tích ${formatArea(parcel.area_m2)} · ${parcel.land_use.map((u) => `${u.code} ${u.name}`).join(', ') || 'chưa có mục đích sử dụng'}`
          : 'Không có thửa đất tại điểm này trong dữ liệu, chỉ có quy hoạch'}
      </Text>
      {zones.map((z) => (
        <Text size="sm" key={z.id}>
          <span className="history-swatch" style={{ background: z.color }} aria-hidden /> {z.land_use_code} —{' '}
          {z.land_use_name}
          {z.max_density_pct !== null ? `, mật độ ${formatNumber(z.max_density_pct, 1)}%` : ''}
          {z.max_floors !== null ? `, ${z.max_floors} tầng` : ''} ({z.plan_name})
        </Text>
      ))}
      <Text size="sm">{reserved > 0 ? `Vướng lộ giới: ${formatArea(reserved)}` : 'Không vướng lộ giới'}</Text>
      <Text size="xs" c="dimmed">
        {source.name}, dữ liệu ngày {formatDate(source.data_date)}
      </Text>
    </Stack>
  )
}

function summary(e: HistoryEntry): string {
  if (e.kind === 'planning') {
    const z = e.result.zones[0]
    return z ? `${z.land_use_code} — ${z.land_use_name}` : 'Chưa có quy hoạch tại điểm này'
  }
  const m = e.result.data.market_estimate
  return m ? `Giá thị trường khoảng ${formatMoneyShort(m.mid_vnd)}` : 'Chưa có giá thị trường'
}

/**
 * Every stored lookup, newest first (at most 200), usable offline: open, show on the map, delete,
 * clear. Opening a stored result never counts against the daily limit. A stored valuation opens on the
 * valuation screen, which `onOpenValuation` shows it on (the history does not know that screen).
 */
export function HistoryPanel({ onOpenValuation }: { onOpenValuation: (e: HistoryEntry<'valuation'>) => void }) {
  const entries = useHistory()
  const navigate = useNavigate()
  const setFocus = useSetAtom(historyFocusAtom)
  const [kind, setKind] = useState<'all' | HistoryKind>('all')
  const [open, setOpen] = useState<string | null>(null)
  const [confirmClear, setConfirmClear] = useState(false)
  if (!entries) return null
  const shown = kind === 'all' ? entries : entries.filter((e) => e.kind === kind)

  function showOnMap(e: HistoryEntry) {
    setFocus(e.id)
    // Only the view goes into the address: a selection there would start a new, counted lookup.
    void navigate({ to: '/demo', hash: encodeMapHash({ view: { lat: e.lat, lng: e.lng, zoom: 18 } }).slice(1) })
  }

  function openEntry(e: HistoryEntry) {
    if (e.kind === 'valuation') {
      onOpenValuation(e as HistoryEntry<'valuation'>)
      return
    }
    setOpen((id) => (id === e.id ? null : e.id))
  }

  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        Kết quả tra cứu và định giá được lưu trên máy này (tối đa 200, mới nhất trước); xem lại không tính lượt và dùng
        được cả khi không có mạng.
      </Text>
      {entries.length === 0 ? (
        <Text size="sm">Chưa có lần tra cứu nào.</Text>
      ) : (
        <>
          <Group justify="space-between">
            <SegmentedControl
              size="sm"
              value={kind}
              onChange={(v) => setKind(v as typeof kind)}
              data={[
                { value: 'all', label: `Tất cả (${entries.length})` },
                { value: 'planning', label: 'Quy hoạch' },
                { value: 'valuation', label: 'Định giá' },
              ]}
              aria-label="Loại kết quả"
            />
            <Button size="compact-sm" variant="subtle" color="red" onClick={() => setConfirmClear(true)}>
              Xoá tất cả
            </Button>
          </Group>
          <Stack
            gap="xs"
            component="ul"
            style={{ listStyle: 'none', padding: 0, margin: 0 }}
            aria-label="Lịch sử tra cứu"
          >
            {shown.map((e) => (
              <Paper key={e.id} withBorder p="xs" component="li" data-testid="history-entry" data-kind={e.kind}>
                <Stack gap={2}>
                  <Group gap={6} wrap="nowrap" justify="space-between">
                    <Text size="sm" fw={600} truncate id={`history-${e.id}`}>
                      {e.label}
                    </Text>
                    <Badge
                      variant="light"
                      color={e.kind === 'planning' ? 'sky' : 'grape'}
                      style={{ flex: 'none', textTransform: 'none' }}
                    >
                      {e.kind === 'planning' ? 'Quy hoạch' : 'Định giá'}
                    </Badge>
                  </Group>
                  <Text size="xs" c="dimmed" id={`history-${e.id}-at`}>
                    Kết quả lưu lúc {formatDateTime(e.at)} · {summary(e)}
                  </Text>
                  {open === e.id && e.kind === 'planning' ? <PlanningDetails entry={e} /> : null}
                  {/* Every row has the same buttons: each tells a screen reader which stored lookup it acts on. */}
                  <Group gap={4} mt={2} role="group" aria-label={e.label}>
                    <Button
                      aria-describedby={`history-${e.id} history-${e.id}-at`}
                      size="compact-sm"
                      variant="light"
                      onClick={() => openEntry(e)}
                      aria-expanded={e.kind === 'planning' ? open === e.id : undefined}
                      rightSection={
                        e.kind === 'planning' ? (
                          open === e.id ? (
                            <IconChevronUp size={14} aria-hidden />
                          ) : (
                            <IconChevronDown size={14} aria-hidden />
                          )
                        ) : null
                      }
                    >
                      {e.kind === 'planning' && open === e.id ? 'Thu gọn' : 'Mở'}
                    </Button>
                    <Button
                      aria-describedby={`history-${e.id} history-${e.id}-at`}
                      size="compact-sm"
                      variant="default"
                      leftSection={<IconMap size={16} aria-hidden />}
                      onClick={() => showOnMap(e)}
                    >
                      Xem trên bản đồ
                    </Button>
                    {e.kind === 'planning' && e.result.parcel && (
                      <Button
                        aria-describedby={`history-${e.id} history-${e.id}-at`}
                        size="compact-sm"
                        variant="default"
                        leftSection={<IconRuler2 size={16} aria-hidden />}
                        onClick={() =>
                          void navigate({
                            to: '/sketch',
                            search: { parcel: e.result.parcel!.id, lat: e.lat, lng: e.lng },
                          })
                        }
                      >
                        Sơ đồ thửa
                      </Button>
                    )}
                    <Button
                      size="compact-sm"
                      variant="subtle"
                      color="red"
                      aria-label={`Xoá: ${e.label}, ${formatDateTime(e.at)}`}
                      onClick={() => void remove(e.id)}
                    >
                      <IconTrash size={16} aria-hidden />
                    </Button>
                  </Group>
                </Stack>
              </Paper>
            ))}
          </Stack>
        </>
      )}
      <ConfirmDialog
        opened={confirmClear}
        title="Xoá toàn bộ lịch sử?"
        confirm="Xoá tất cả"
        onCancel={() => setConfirmClear(false)}
        onConfirm={() => {
          setConfirmClear(false)
          void clear()
        }}
      >
        Mọi kết quả tra cứu và định giá đã lưu trên máy này sẽ bị xoá; muốn xem lại phải tra cứu lại (tính lượt).
      </ConfirmDialog>
    </Stack>
  )
}
