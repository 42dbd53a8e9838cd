import { useId, useState, useSyncExternalStore, type ReactNode } from 'react'
import { CloseButton } from '@mantine/core'
import type { TileJson } from '#core/contract/tiles.ts'
import { formatDate } from '../../../lib/format/format.ts'
import type { LayerSettings } from '../engine/map-controller.ts'
import type { LegendEntry } from '../land-use.ts'
import { pageScheme, watchPageScheme } from '../page-scheme.ts'
import { mapConfig } from '../config.ts'
import type { useMapLayers } from '../hooks/use-map-layers.ts'
import { BOUNDARIES_MIN_ZOOM, legendSwatches } from '../styles.ts'

type Boundaries = NonNullable<TileJson['boundaries']>
type MapLayers = ReturnType<typeof useMapLayers>

/** Layers on and off, planning opacity, basemap choice and the high-contrast look for bright sun. */
export function LayerPanel(props: {
  settings: LayerSettings
  onSettings: (s: LayerSettings) => void
  hasRaster: boolean
  onClose: () => void
  children?: ReactNode
}) {
  const id = useId()
  const { settings: s, onSettings } = props
  const set = (patch: Partial<LayerSettings>) => onSettings({ ...s, ...patch })
  return (
    <section className="qh-layers qh-floating qh-panel" aria-labelledby={`${id}-h`} data-testid="layer-panel">
      <CloseButton
        size="lg"
        aria-label="Đóng bảng lớp bản đồ"
        onClick={props.onClose}
        style={{ position: 'absolute', top: 4, right: 4 }}
      />
      <h2 id={`${id}-h`}>Lớp bản đồ</h2>
      <label className="qh-check">
        <input type="checkbox" checked={s.planning} onChange={(e) => set({ planning: e.currentTarget.checked })} />
        Quy hoạch sử dụng đất và lộ giới
      </label>
      <label className="qh-field">
        <span>Độ đậm lớp quy hoạch: {Math.round(s.planningOpacity * 100)}%</span>
        <input
          className="qh-range"
          type="range"
          min={0}
          max={100}
          step={5}
          value={Math.round(s.planningOpacity * 100)}
          disabled={!s.planning}
          onChange={(e) => set({ planningOpacity: Number(e.currentTarget.value) / 100 })}
          data-testid="planning-opacity"
        />
      </label>
      <label className="qh-check">
        <input type="checkbox" checked={s.parcels} onChange={(e) => set({ parcels: e.currentTarget.checked })} />
        Ranh thửa và số thửa (từ mức phóng 16)
      </label>
      {props.children}
      {props.hasRaster && (
        <fieldset style={{ border: 0, padding: 0, margin: '6px 0 0' }}>
          <legend style={{ fontWeight: 600 }}>Bản đồ nền</legend>
          <label className="qh-check">
            <input
              type="radio"
              name={`${id}-base`}
              checked={s.basemap === 'vector'}
              onChange={() => set({ basemap: 'vector' })}
            />
            Bản đồ nền của ứng dụng
          </label>
          <label className="qh-check">
            <input
              type="radio"
              name={`${id}-base`}
              checked={s.basemap === 'raster'}
              onChange={() => set({ basemap: 'raster' })}
            />
            Bản đồ nền ảnh (máy chủ bản đồ ngoài)
          </label>
        </fieldset>
      )}
      <label className="qh-check">
        <input
          type="checkbox"
          checked={s.highContrast}
          onChange={(e) => set({ highContrast: e.currentTarget.checked })}
        />
        Tương phản cao (dễ đọc ngoài nắng)
      </label>
    </section>
  )
}

/**
 * Every symbol on screen now: the land-use codes drawn, the parcel outlines with their numbers (from
 * z16, when shown), the road reserves' hatching (when one is in view) and today's administrative
 * boundaries with their date and source (from z6); folds to a button on phones.
 * Swatches show the symbols as the map draws them in the page's colour scheme, at the planning opacity.
 */
export function Legend(props: {
  entries: LegendEntry[]
  reserves: boolean
  parcels: boolean
  /** Today's administrative boundaries when the map draws them: their lines, date and source. */
  boundaries?: Boundaries | undefined
  compact: boolean
  planningOpacity: number
  highContrast: boolean
}) {
  const id = useId()
  const [open, setOpen] = useState(!props.compact)
  const scheme = useSyncExternalStore(watchPageScheme, pageScheme)
  const swatch = legendSwatches({ scheme, highContrast: props.highContrast }, props.planningOpacity)
  const count = props.entries.length + (props.reserves ? 1 : 0) + (props.parcels ? 1 : 0) + (props.boundaries ? 2 : 0)
  if (count === 0) return null
  if (!open) {
    return (
      <button
        type="button"
        className="qh-chip qh-floating"
        aria-expanded={false}
        onClick={() => setOpen(true)}
        data-testid="legend-chip"
      >
        Chú giải ({count})
      </button>
    )
  }
  return (
    <section
      className="qh-panel qh-floating qh-legend-open"
      aria-labelledby={`${id}-h`}
      data-testid="legend"
      style={{ position: 'relative' }}
    >
      {props.compact && (
        <CloseButton
          size="lg"
          aria-label="Thu gọn chú giải"
          onClick={() => setOpen(false)}
          style={{ position: 'absolute', top: 2, right: 2 }}
        />
      )}
      <h2 id={`${id}-h`}>Chú giải</h2>
      <ul className="qh-legend">
        {props.entries.map((e) => (
          <li key={e.code} data-code={e.code}>
            <span className="qh-swatch" style={{ background: swatch.zone(e.color) }} aria-hidden />
            <span>
              <b>{e.code}</b> {e.name}
            </span>
          </li>
        ))}
        {props.parcels ? (
          <li data-testid="legend-parcels">
            <span className="qh-swatch qh-swatch-parcel" style={swatch.parcel} aria-hidden>
              12
            </span>
            <span>Ranh thửa và số thửa</span>
          </li>
        ) : null}
        {props.reserves ? (
          <li data-testid="legend-reserves">
            <span className="qh-swatch qh-swatch-hatch" aria-hidden />
            <span>Lộ giới (chỉ giới đường đỏ)</span>
          </li>
        ) : null}
        {props.boundaries ? (
          <>
            <li data-testid="legend-provinces">
              <span className="qh-swatch qh-swatch-line" style={{ borderTopColor: swatch.province }} aria-hidden />
              <span>Ranh giới tỉnh, thành phố</span>
            </li>
            <li data-testid="legend-wards">
              <span className="qh-swatch qh-swatch-line" style={{ borderTopColor: swatch.ward }} aria-hidden />
              <span>Ranh giới phường, xã, đặc khu</span>
            </li>
          </>
        ) : null}
      </ul>
      {props.boundaries ? (
        <p className="qh-legend-source" data-testid="legend-boundaries-source">
          Ranh giới hành chính {formatDate(props.boundaries.data_date)} — nguồn: {props.boundaries.source}
        </p>
      ) : null}
    </section>
  )
}

/**
 * The legend of what the map draws at this zoom, bottom right: the planning entries once the plans
 * show (and are on), the parcels from theirs, today's boundaries from z6 when the basemap draws them.
 */
export function MapLegend({ layers, zoom, compact }: { layers: MapLayers; zoom: number; compact: boolean }) {
  const planning = layers.settings.planning && zoom > mapConfig.planningMinZoom
  return (
    <div className="qh-bottom-right">
      <Legend
        entries={planning ? layers.legend.entries : []}
        reserves={planning && layers.legend.reserves}
        parcels={layers.settings.parcels && zoom >= mapConfig.parcelMinZoom}
        boundaries={zoom >= BOUNDARIES_MIN_ZOOM ? layers.tileSets?.basemap?.boundaries : undefined}
        compact={compact}
        planningOpacity={layers.settings.planningOpacity}
        highContrast={layers.settings.highContrast}
      />
    </div>
  )
}
