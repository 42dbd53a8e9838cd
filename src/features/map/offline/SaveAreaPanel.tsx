import './offline-map.css'
import { useEffect, useMemo, useRef, useState } from 'react'
import { useAtomValue } from 'jotai'
import { Button, CloseButton, Group, Text } from '@mantine/core'
import { Link } from '@tanstack/react-router'
import { IconDownload, IconSquareDashed } from '@tabler/icons-react'
import { formatDistance, formatNumber } from '../../../lib/format/format.ts'
import { useOnline } from '../../../lib/use-online.ts'
import type { MapController } from '../engine/map-controller.ts'
import { overlaysAtom } from '../overlays.ts'
import {
  areaLayers,
  areaManager,
  fetchSizeSamples,
  requestPersistence,
  savedAreasAtom,
  storageInfo,
  type SavedArea,
  type StorageInfo,
} from '../../offline/index.ts'
import { estimateBytes, type SizeSample } from '#core/offline/estimate.ts'
import type { BoxTools } from './map-box.ts'
import { AreaFacts, AreaProgress, ZoomRange } from './SaveAreaParts.tsx'
import { bboxSizeMeters, planArea, planCount, type Bbox } from '#core/offline/tile-grid.ts'

/** More tiles than this is a district, not a site: the user is asked to narrow the box or the zooms. */
export const MAX_AREA_TILES = 40_000
const LAST_ZOOM = 20
const DEFAULT_TOP_ZOOM = 18

/** The chosen box drawn on the map while the panel is open. */
function useBoxOnMap(tools: BoxTools, bbox: Bbox) {
  const [shown, setShown] = useState<ReturnType<BoxTools['showBox']> | null>(null)
  useEffect(() => {
    const box = tools.showBox()
    setShown(box)
    return box.remove
  }, [tools])
  useEffect(() => shown?.set(bbox), [shown, bbox])
}

/** Sizes of a few sample tiles per layer and zoom, for the estimate (null while they are fetched). */
function useSamples(plan: ReturnType<typeof planArea>, layers: SavedArea['layers']) {
  const known = useRef(new Map<string, SizeSample>())
  const [samples, setSamples] = useState<SizeSample[] | null>(null)
  useEffect(() => {
    const ctrl = new AbortController()
    setSamples(null)
    void fetchSizeSamples(plan, layers, known.current, ctrl.signal).then(
      (got) => !ctrl.signal.aborted && setSamples(got),
    )
    return () => ctrl.abort()
  }, [plan, layers])
  return samples
}

/** Choose the box and zooms, see the tile count and size, download with progress, pause, resume, cancel. */
export default function SaveAreaPanel({
  ctrl,
  tools,
  onClose,
}: {
  ctrl: MapController
  tools: BoxTools
  onClose: () => void
}) {
  const online = useOnline()
  const areas = useAtomValue(savedAreasAtom)
  const [bbox, setBbox] = useState<Bbox>(() => tools.viewBbox())
  const [drawn, setDrawn] = useState(false)
  const [drawing, setDrawing] = useState(false)
  const currentZoom = Math.floor(ctrl.view().zoom)
  const [fromZoom, setFromZoom] = useState(() => Math.min(LAST_ZOOM, Math.max(10, currentZoom)))
  const [toZoom, setToZoom] = useState(() => Math.max(DEFAULT_TOP_ZOOM, Math.min(LAST_ZOOM, Math.max(10, currentZoom))))
  const [name, setName] = useState('')
  const [storage, setStorage] = useState<StorageInfo | null>(null)
  const [areaId, setAreaId] = useState<string | null>(null)
  const [starting, setStarting] = useState(false)
  useBoxOnMap(tools, bbox)

  useEffect(() => {
    void areaManager.reload()
    void storageInfo().then(setStorage)
  }, [])

  const sets = ctrl.tileSets()
  // The scanned planning maps of the area are saved with it, whether or not they are on now.
  const overlays = useAtomValue(overlaysAtom)
  const layers = useMemo(() => areaLayers(sets, overlays), [sets, overlays])
  const plan = useMemo(() => planArea(bbox, fromZoom, toZoom, layers), [bbox, fromZoom, toZoom, layers])
  const count = planCount(plan)
  const samples = useSamples(plan, layers)
  const estimate = samples ? estimateBytes(plan, samples) : null
  const size = bboxSizeMeters(bbox)
  const free = storage ? Math.max(0, storage.quota - storage.usage) : null
  const started = areas.find((a) => a.id === areaId)

  // Drawing a box: a drag on the map draws it instead of panning; the panel steps aside meanwhile.
  useEffect(() => {
    if (!drawing) return
    return tools.drawBox((drawnBox) => {
      setBbox(drawnBox)
      setDrawn(true)
      setDrawing(false)
    })
  }, [tools, drawing])

  async function start() {
    setStarting(true)
    try {
      // Asked when the user shows they want data kept: the browser may then never clear it under pressure.
      await requestPersistence()
      const area = await areaManager.create({
        name: name.trim() || `Khu vực ${areas.length + 1}`,
        bbox,
        minZoom: fromZoom,
        maxZoom: toZoom,
        sets,
        overlays,
        estimatedBytes: estimate ?? 0,
      })
      setAreaId(area.id)
    } finally {
      setStarting(false)
    }
  }

  if (drawing) {
    return (
      <div className="save-area-hint qh-floating qh-panel" role="status">
        <IconSquareDashed size={20} aria-hidden />
        <span>Kéo trên bản đồ để vẽ khung cần lưu.</span>
        <Button size="xs" variant="default" onClick={() => setDrawing(false)}>
          Thôi vẽ
        </Button>
      </div>
    )
  }

  const tooBig = count > MAX_AREA_TILES
  const noLayers = Object.keys(layers).length === 0
  return (
    <section
      className="qh-layers qh-floating qh-panel save-area-panel"
      aria-labelledby="save-area-title"
      data-testid="save-area-panel"
    >
      <CloseButton
        size="lg"
        aria-label="Đóng bảng lưu khu vực"
        onClick={onClose}
        style={{ position: 'absolute', top: 4, right: 4 }}
      />
      <h2 id="save-area-title">Lưu khu vực offline</h2>
      {started ? (
        <AreaProgress area={started} />
      ) : (
        <>
          <Text size="sm">
            {drawn ? 'Khung đã vẽ' : 'Khung đang xem trên bản đồ'} ({formatDistance(size.width)} ×{' '}
            {formatDistance(size.height)}).
          </Text>
          <Group gap="xs" my={6}>
            <Button
              size="xs"
              variant="default"
              leftSection={<IconSquareDashed size={16} aria-hidden />}
              onClick={() => setDrawing(true)}
            >
              Vẽ khung
            </Button>
            <Button
              size="xs"
              variant="subtle"
              onClick={() => {
                setBbox(tools.viewBbox())
                setDrawn(false)
              }}
            >
              Dùng khung đang xem
            </Button>
          </Group>
          <label>
            Tên khu vực
            <input
              type="text"
              value={name}
              placeholder={`Khu vực ${areas.length + 1}`}
              onChange={(e) => setName(e.currentTarget.value)}
              data-testid="save-area-name"
            />
          </label>
          <ZoomRange from={fromZoom} to={toZoom} last={LAST_ZOOM} onFrom={setFromZoom} onTo={setToZoom} />
          <AreaFacts
            count={count}
            estimate={estimate}
            free={free}
            noLayers={noLayers}
            tooBig={tooBig}
            maxTiles={MAX_AREA_TILES}
            online={online}
          />
          <Button
            mt="xs"
            fullWidth
            leftSection={<IconDownload size={18} aria-hidden />}
            disabled={
              !online || noLayers || tooBig || count === 0 || (estimate !== null && free !== null && estimate > free)
            }
            loading={starting}
            onClick={() => void start()}
            data-testid="save-area-start"
          >
            Tải về ({formatNumber(count)} ô)
          </Button>
          <Button size="xs" variant="subtle" component={Link} to="/offline" mt={4}>
            Các khu vực đã lưu, ảnh chờ gửi, lịch sử
          </Button>
        </>
      )}
    </section>
  )
}
