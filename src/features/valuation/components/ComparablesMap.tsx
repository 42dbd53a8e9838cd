import 'ol/ol.css'
import { useEffect, useRef } from 'react'
import LineString from 'ol/geom/LineString'
import OlMap from 'ol/Map'
import View from 'ol/View'
import Feature from 'ol/Feature'
import GeoJSON from 'ol/format/GeoJSON'
import MVT from 'ol/format/MVT'
import Point from 'ol/geom/Point'
import { defaults as defaultInteractions } from 'ol/interaction/defaults'
import { defaults as defaultControls } from 'ol/control/defaults'
import VectorLayer from 'ol/layer/Vector'
import VectorTileLayer from 'ol/layer/VectorTile'
import { fromLonLat } from 'ol/proj'
import VectorSource from 'ol/source/Vector'
import VectorTileSource from 'ol/source/VectorTile'
import { Circle, Fill, RegularShape, Stroke, Style, Text } from 'ol/style'
import type { FeatureLike } from 'ol/Feature'
import { env } from '../../../lib/env.ts'
import type { ValuationData } from '#core/contract/lookups.ts'
import { spreadPoints } from '../chart-layout.ts'
import { NUMBERED } from '../explain.ts'

const styles = {
  water: new Style({ fill: new Fill({ color: '#a5d8f3' }) }),
  green: new Style({ fill: new Fill({ color: '#cdeccb' }) }),
  blocks: new Style({ fill: new Fill({ color: 'rgba(160,160,160,0.3)' }) }),
  street: new Style({ stroke: new Stroke({ color: '#ffffff', width: 3 }) }),
  main: new Style({ stroke: new Stroke({ color: '#f6c26b', width: 5 }) }),
  cadastre: new Style({ stroke: new Stroke({ color: 'rgba(90,90,90,0.55)', width: 0.8 }) }),
  leader: new Style({ stroke: new Stroke({ color: 'rgba(30,30,30,0.55)', width: 1 }) }),
  parcel: new Style({
    fill: new Fill({ color: 'rgba(220,38,38,0.25)' }),
    stroke: new Stroke({ color: '#b91c1c', width: 2.5 }),
  }),
  // The parcel itself is only a few pixels across when the map shows every sale: a marker finds it.
  target: new Style({
    image: new RegularShape({
      points: 4,
      radius: 11,
      angle: Math.PI / 4,
      fill: new Fill({ color: '#dc2626' }),
      stroke: new Stroke({ color: '#ffffff', width: 2 }),
    }),
    text: new Text({ text: '★', font: '700 12px system-ui, sans-serif', fill: new Fill({ color: '#ffffff' }) }),
  }),
}

/** A light basemap: enough to see streets and water around the comparables, nothing more. */
function basemapStyle(feature: FeatureLike): Style | undefined {
  switch (String(feature.get('layer') ?? '')) {
    case 'water':
      return styles.water
    case 'green':
      return styles.green
    case 'blocks':
      return styles.blocks
    case 'streets':
      return feature.get('class') === 'main' ? styles.main : styles.street
    default:
      return undefined
  }
}

const COLORS = { above: '#c2410c', below: '#0369a1', repeat: '#7e22ce' }

/** A sale's marker: numbered as in the table, a diamond for the parcel's own earlier sale, ringed when selected. */
function saleStyle(n: number | null, kind: keyof typeof COLORS, selected: boolean): Style {
  const fill = new Fill({ color: COLORS[kind] })
  const stroke = new Stroke({ color: selected ? '#111827' : '#ffffff', width: selected ? 3 : 1.5 })
  const radius = (n === null ? 5 : 9) + (selected ? 3 : 0)
  return new Style({
    image:
      kind === 'repeat'
        ? new RegularShape({ points: 4, radius: radius + 2, fill, stroke })
        : new Circle({ radius, fill, stroke }),
    text:
      n === null
        ? undefined
        : new Text({ text: String(n), font: '700 11px system-ui, sans-serif', fill: new Fill({ color: '#ffffff' }) }),
    zIndex: selected ? 10 : kind === 'repeat' ? 5 : 1,
  })
}

/** The map drawn into one image, for the printed report (the tiles are same-origin, so the canvas is readable). */
function snapshot(map: OlMap): string | null {
  const size = map.getSize()
  if (!size) return null
  const ratio = window.devicePixelRatio || 1
  const out = document.createElement('canvas')
  out.width = Math.round(size[0]! * ratio)
  out.height = Math.round(size[1]! * ratio)
  const ctx = out.getContext('2d')
  if (!ctx) return null
  ctx.fillStyle = '#eef2f3'
  ctx.fillRect(0, 0, out.width, out.height)
  const layers = map.getViewport()?.querySelectorAll<HTMLCanvasElement>('.ol-layer canvas, canvas.ol-layer') ?? []
  for (const canvas of Array.from(layers)) {
    if (canvas.width === 0) continue
    const opacity = (canvas.parentElement?.style.opacity || canvas.style.opacity) ?? ''
    ctx.globalAlpha = opacity === '' ? 1 : Number(opacity)
    const matrix = /^matrix\(([^(]*)\)$/.exec(canvas.style.transform)?.[1]?.split(',').map(Number)
    if (matrix && matrix.length === 6)
      ctx.setTransform(matrix[0]!, matrix[1]!, matrix[2]!, matrix[3]!, matrix[4]!, matrix[5]!)
    else ctx.setTransform(1, 0, 0, 1, 0, 0)
    ctx.drawImage(canvas, 0, 0)
  }
  ctx.globalAlpha = 1
  ctx.setTransform(1, 0, 0, 1, 0, 0)
  try {
    return out.toDataURL('image/png')
  } catch {
    return null
  }
}

type Props = {
  data: ValuationData
  onSnapshot?: (png: string | null) => void
  selectedId?: string | null
  onSelect?: (id: string) => void
}

/** Markers closer than this on screen are moved apart (with a line back to where the sale really is). */
const MIN_GAP_PX = 20

/**
 * The parcel (red), the cadastre around it and the nearby sales on a small map: the first ones numbered
 * as in the table, orange when their adjusted price is above the estimate, blue below, a purple diamond
 * for the parcel's own earlier sale. Tapping a sale selects it; the selected one is ringed. Reports an
 * image of itself whenever it has finished drawing, for the printed report.
 */
export default function ComparablesMap({ data, onSnapshot, selectedId = null, onSelect }: Props) {
  const container = useRef<HTMLDivElement>(null)
  const snapshotRef = useRef(onSnapshot)
  snapshotRef.current = onSnapshot
  const selectRef = useRef(onSelect)
  selectRef.current = onSelect
  const selectedRef = useRef(selectedId)
  const salesLayerRef = useRef<VectorLayer | null>(null)

  useEffect(() => {
    selectedRef.current = selectedId
    salesLayerRef.current?.changed()
  }, [selectedId])

  useEffect(() => {
    if (!container.current) return
    const perM2 = data.market_estimate?.vnd_per_m2 ?? null
    const parcelFeatures = new GeoJSON().readFeatures(
      { type: 'Feature', geometry: data.parcel.geometry, properties: {} },
      { featureProjection: 'EPSG:3857' },
    )
    parcelFeatures.forEach((f) => f.setStyle(styles.parcel))
    const truePlaces = data.comparables.map((c) => fromLonLat([c.lng, c.lat]))
    const sales = data.comparables.map((c, i) => {
      const f = new Feature(new Point(truePlaces[i]!))
      const price = c.adjusted_vnd_per_m2 ?? c.vnd_per_m2
      const kind = c.repeat_sale ? 'repeat' : perM2 !== null && price > perM2 ? 'above' : 'below'
      f.setId(c.id)
      f.setStyle(() => saleStyle(i < NUMBERED ? i + 1 : null, kind, selectedRef.current === c.id))
      return f
    })
    const leaders = sales.map((_, i) => new Feature(new LineString([truePlaces[i]!, truePlaces[i]!])))
    leaders.forEach((f) => f.setStyle(styles.leader))
    const targetPlace = fromLonLat([data.location.lng, data.location.lat])
    const target = new Feature(new Point(targetPlace))
    target.setStyle(styles.target)
    // Numbered sales drawn after the unnumbered dots; the parcel's marker has a layer of its own on top.
    const salesLayer = new VectorLayer({
      source: new VectorSource({
        features: [...leaders, ...sales.slice(NUMBERED), ...sales.slice(0, NUMBERED).reverse()],
      }),
      zIndex: 3,
    })
    salesLayerRef.current = salesLayer
    const map = new OlMap({
      target: container.current,
      controls: defaultControls({ rotate: false, attributionOptions: { collapsible: true, collapsed: true } }),
      // The page scrolls under a small map: the wheel scrolls the page, buttons and pinch zoom the map.
      interactions: defaultInteractions({ mouseWheelZoom: false }),
      layers: [
        new VectorTileLayer({
          source: new VectorTileSource({
            format: new MVT(),
            url: `${env.apiBaseUrl}/tiles/basemap/{z}/{x}/{y}.pbf`,
            maxZoom: 18,
          }),
          style: basemapStyle,
          declutter: false,
        }),
        new VectorTileLayer({
          source: new VectorTileSource({
            format: new MVT(),
            url: `${env.apiBaseUrl}/tiles/parcels/{z}/{x}/{y}.pbf`,
            maxZoom: 18,
          }),
          style: styles.cadastre,
          minZoom: 15,
        }),
        new VectorLayer({ source: new VectorSource({ features: parcelFeatures }) }),
        salesLayer,
        new VectorLayer({ source: new VectorSource({ features: [target] }), zIndex: 4 }),
      ],
      view: new View({ center: fromLonLat([data.location.lng, data.location.lat]), zoom: 17, maxZoom: 20 }),
    })
    // Several sales of one house, or of next-door houses, would hide each other: spread them on screen
    // at each zoom, nearest first keeping their place, each with a line to where it really is.
    const spread = () => {
      const pixels = truePlaces.map((p) => map.getPixelFromCoordinate(p) as [number, number] | null)
      const parcelPixel = map.getPixelFromCoordinate(targetPlace) as [number, number] | null
      if (!parcelPixel || pixels.some((p) => !p)) return
      // The parcel's own marker goes first and stays: sales move off it rather than hide it.
      const moved = spreadPoints([parcelPixel, ...pixels.map((p) => p!)], MIN_GAP_PX).slice(1)
      sales.forEach((_, i) => {
        const place = map.getCoordinateFromPixel(moved[i]!)
        ;(sales[i]!.getGeometry() as Point).setCoordinates(place)
        ;(leaders[i]!.getGeometry() as LineString).setCoordinates([truePlaces[i]!, place])
      })
    }
    map.once('postrender', spread)
    map.on('moveend', spread)
    const onClick = (e: { pixel: number[] }) => {
      const hit = map.forEachFeatureAtPixel(e.pixel, (f) => (f.getId() !== undefined ? String(f.getId()) : undefined), {
        layerFilter: (l) => l === salesLayer,
        hitTolerance: 4,
      })
      if (hit) selectRef.current?.(hit)
    }
    map.on('singleclick', onClick)
    // Framed on the parcel and the numbered (nearest) sales: the neighbourhood that sets the price.
    const near = new VectorSource({
      features: [...parcelFeatures, ...sales.slice(0, NUMBERED), target].map((f) => f.clone()),
    })
    const extent = near.getExtent()
    if (extent && extent.every(Number.isFinite)) map.getView().fit(extent, { padding: [36, 36, 36, 36], maxZoom: 19 })
    const onRendered = () => snapshotRef.current?.(snapshot(map))
    map.on('rendercomplete', onRendered)
    return () => {
      map.un('rendercomplete', onRendered)
      map.un('moveend', spread)
      map.un('singleclick', onClick)
      salesLayerRef.current = null
      map.setTarget(undefined)
      map.dispose()
    }
  }, [data])

  return (
    <div
      ref={container}
      className="comparables-map"
      role="img"
      aria-label="Bản đồ thửa đất (dấu đỏ), ranh các thửa xung quanh và các giao dịch so sánh: cam là sau điều chỉnh cao hơn ước tính, xanh là thấp hơn, hình thoi tím là chính thửa này bán trước đây. Danh sách giao dịch ở bảng bên dưới."
      data-testid="comparables-map"
    />
  )
}
