import Feature from 'ol/Feature'
import type { FeatureLike } from 'ol/Feature'
import type OlMap from 'ol/Map'
import type Geometry from 'ol/geom/Geometry'
import LineString from 'ol/geom/LineString'
import Polygon from 'ol/geom/Polygon'
import MultiPoint from 'ol/geom/MultiPoint'
import Point from 'ol/geom/Point'
import Draw from 'ol/interaction/Draw'
import Modify from 'ol/interaction/Modify'
import VectorLayer from 'ol/layer/Vector'
import VectorSource from 'ol/source/Vector'
import { fromLonLat, toLonLat } from 'ol/proj'
import proj4 from 'proj4'
import CircleStyle from 'ol/style/Circle'
import Fill from 'ol/style/Fill'
import Stroke from 'ol/style/Stroke'
import Style from 'ol/style/Style'
import Text from 'ol/style/Text'
import { formatMeasureArea, formatMeasureLength } from '../../../lib/geo/measure-format.ts'
import { createParcelSnap, type ParcelSnap, type SnapTarget } from './measure-snap.ts'

export type MeasureKind = 'length' | 'area'
/** One measurement: its total, and `sides` (each segment's length in m, in drawing order; a polygon's closing side last). */
export type Measurement = {
  id: number
  kind: MeasureKind
  lengthM: number
  areaM2: number
  sides: number[]
  text: string
  /** The shape as WGS84 [lng, lat] points; a polygon's ring without its closing point. */
  points: [number, number][]
}

/**
 * Ground length and area on the WGS84 ellipsoid, as a tape or a survey would read them (not Mercator's
 * inflated ones, nor a sphere's, which is 0.5 % off): the shape is projected to a transverse Mercator
 * centred on itself, where scale is true to a few parts per million across a ward.
 */
function toLocalMetres(coords: number[][]): number[][] {
  const lonLat = coords.map((c) => toLonLat(c))
  const [lng, lat] = lonLat.reduce(
    (acc, [x, y]) => [acc[0]! + x! / lonLat.length, acc[1]! + y! / lonLat.length],
    [0, 0],
  )
  const local = proj4(
    'EPSG:4326',
    `+proj=tmerc +lat_0=${lat} +lon_0=${lng} +k=1 +x_0=0 +y_0=0 +ellps=WGS84 +units=m +no_defs`,
  )
  return lonLat.map((c) => local.forward(c))
}

function segmentLengths(points: number[][]): number[] {
  const out: number[] = []
  for (let i = 1; i < points.length; i++)
    out.push(Math.hypot(points[i]![0]! - points[i - 1]![0]!, points[i]![1]! - points[i - 1]![1]!))
  return out
}
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0)

function ringArea(points: number[][]): number {
  let twice = 0
  for (let i = 0, j = points.length - 1; i < points.length; j = i++)
    twice += points[j]![0]! * points[i]![1]! - points[i]![0]! * points[j]![1]!
  return Math.abs(twice) / 2
}

const lngLat = (c: number[]): [number, number] => {
  const [lng, lat] = toLonLat(c)
  return [lng!, lat!]
}
function openRing(ring: number[][]): number[][] {
  const first = ring[0]
  const last = ring.at(-1)
  return first && last && ring.length > 1 && first[0] === last[0] && first[1] === last[1] ? ring.slice(0, -1) : ring
}

/** The map geometry of a kept shape: a line through its points, or the polygon they ring. */
export function geometryOf(kind: MeasureKind, points: readonly [number, number][]): LineString | Polygon {
  const coords = points.map((p) => fromLonLat(p))
  return kind === 'area' ? new Polygon([[...coords, coords[0]!]]) : new LineString(coords)
}

export function measureGeometry(geometry: Geometry): Omit<Measurement, 'id'> | null {
  if (geometry instanceof Polygon) {
    const rings = geometry.getCoordinates()
    const outer = rings[0] ?? []
    if (outer.length < 3) return null
    const all = toLocalMetres(rings.flat())
    let offset = 0
    const local = rings.map((r) => {
      const part = all.slice(offset, offset + r.length)
      offset += r.length
      return part
    })
    const areaM2 = Math.max(0, ringArea(local[0]!) - local.slice(1).reduce((sum, hole) => sum + ringArea(hole), 0))
    const ring = local[0]!
    const first = ring[0]!
    const last = ring[ring.length - 1]!
    const sides = segmentLengths(first[0] === last[0] && first[1] === last[1] ? ring : [...ring, first])
    const lengthM = sum(sides)
    const ringPoints = openRing(outer)
    return {
      kind: 'area',
      lengthM,
      areaM2,
      sides,
      points: ringPoints.map(lngLat),
      text: `${formatMeasureArea(areaM2)} · chu vi ${formatMeasureLength(lengthM)}`,
    }
  }
  if (geometry instanceof LineString) {
    const coords = geometry.getCoordinates()
    const sides = coords.length < 2 ? [] : segmentLengths(toLocalMetres(coords))
    const lengthM = sum(sides)
    return { kind: 'length', lengthM, areaM2: 0, sides, text: formatMeasureLength(lengthM), points: coords.map(lngLat) }
  }
  return null
}

const ORANGE = '#c2410c'
const lineStroke = new Stroke({ color: ORANGE, width: 3 })
/** Every vertex drawn as a handle, so it is plain that each one can be dragged. */
const vertices = new Style({
  image: new CircleStyle({
    radius: 6,
    fill: new Fill({ color: '#ffffff' }),
    stroke: new Stroke({ color: ORANGE, width: 2.5 }),
  }),
  geometry: (f: FeatureLike) => {
    const g = f.getGeometry()
    if (g instanceof Polygon) return new MultiPoint(g.getCoordinates()[0] ?? [])
    if (g instanceof LineString) return new MultiPoint(g.getCoordinates())
    return undefined
  },
})

const sideText = (text: string) =>
  new Text({
    text,
    font: '600 12px system-ui, sans-serif',
    fill: new Fill({ color: ORANGE }),
    stroke: new Stroke({ color: '#ffffff', width: 3 }),
    overflow: true,
  })

/** Each side's length at its middle (as on a survey sketch), when there is more than one side. */
function sideLabels(g: Geometry, sides: number[]): Style[] {
  const coords =
    g instanceof Polygon ? (g.getCoordinates()[0] ?? []) : g instanceof LineString ? g.getCoordinates() : []
  if (sides.length < 2) return []
  return sides.flatMap((m, i) => {
    const a = coords[i]
    const b = coords[(i + 1) % coords.length]
    if (!a || !b || m < 0.05) return []
    return [
      new Style({
        geometry: new Point([(a[0]! + b[0]!) / 2, (a[1]! + b[1]!) / 2]),
        text: sideText(formatMeasureLength(m)),
      }),
    ]
  })
}

function styleFor(feature: FeatureLike): Style[] {
  const g = feature.getGeometry() as Geometry | undefined
  const m = g ? measureGeometry(g) : null
  const styles = [new Style({ stroke: lineStroke, fill: new Fill({ color: 'rgba(194,65,12,0.15)' }) }), vertices]
  if (m && g) {
    styles.push(...sideLabels(g, m.sides))
    const at =
      g instanceof Polygon
        ? g.getInteriorPoint()
        : g instanceof LineString
          ? new Point(g.getLastCoordinate())
          : undefined
    styles.push(
      new Style({
        geometry: at,
        text: new Text({
          text: m.kind === 'area' ? formatMeasureArea(m.areaM2) : m.text,
          font: '700 14px system-ui, sans-serif',
          fill: new Fill({ color: '#111111' }),
          stroke: new Stroke({ color: '#ffffff', width: 4 }),
          // Below the centre of an area: the middles of its left and right sides, with their lengths, are level with it.
          offsetY: m.kind === 'length' ? -14 : 18,
          overflow: true,
        }),
      }),
    )
  }
  return styles
}

/** The measurements drawn on each map, kept when the panel closes ("Xong") until the user clears them. */
const kept = new WeakMap<OlMap, ReturnType<typeof build>>()

/**
 * Measuring on the map: draw a line or a polygon (tap to add points, tap the last point again or the
 * first one to finish), then drag any vertex to adjust it. Every change reports the list of
 * measurements and the one being drawn. Opening it again on the same map finds what was drawn before.
 */
export function createMeasure(
  map: OlMap,
  onChange: (list: Measurement[], drawing: string | null) => void,
  onSnap: (target: SnapTarget | null) => void = () => {},
) {
  const m = kept.get(map) ?? build(map)
  kept.set(map, m)
  m.attach(onChange, onSnap)
  return m
}

function build(map: OlMap) {
  const source = new VectorSource<Feature<Geometry>>()
  const layer = new VectorLayer({ source, style: styleFor, zIndex: 70, properties: { name: 'measure' } })
  const modify = new Modify({ source, pixelTolerance: 14 })
  let draw: Draw | null = null
  let nextId = 1
  let sketch: string | null = null
  let onChange: ((list: Measurement[], drawing: string | null) => void) | null = null
  let snap: ParcelSnap | null = null
  let snapping = true

  const report = () => {
    const list = source.getFeatures().flatMap((f) => {
      const m = measureGeometry(f.getGeometry()!)
      return m ? [{ id: Number(f.getId()), ...m }] : []
    })
    onChange?.(list, sketch)
  }

  map.addLayer(layer)
  source.on('change', report)

  const stopDrawing = () => {
    if (!draw) return
    map.removeInteraction(draw)
    draw = null
    sketch = null
  }

  return {
    /** Reports to this listener from now on (the panel, opened again), with the vertices draggable. */
    attach(listener: (list: Measurement[], drawing: string | null) => void, onSnap: (t: SnapTarget | null) => void) {
      onChange = listener
      if (!map.getInteractions().getArray().includes(modify)) map.addInteraction(modify)
      snap?.dispose()
      snap = createParcelSnap(map, onSnap)
      snap.setEnabled(snapping)
      report()
    },
    /** Vertices land on parcel corners and sides (the default), or wherever the tap is. */
    setSnapping(on: boolean) {
      snapping = on
      snap?.setEnabled(on)
    },
    /**
     * Draws a kept measurement again and brings it into view above the lowest `coveredPx` of the map (the
     * panel's); returns its id in the list reported.
     */
    show(kind: MeasureKind, points: readonly [number, number][], coveredPx = 0): number {
      const id = nextId++
      const feature = new Feature<Geometry>(geometryOf(kind, points))
      feature.setId(id)
      source.addFeature(feature)
      const size = map.getSize()
      const extent = feature.getGeometry()!.getExtent()
      if (size) map.getView().fit(extent, { padding: [70, 60, coveredPx + 30, 40], maxZoom: 20, duration: 250 })
      return id
    },
    start(kind: MeasureKind) {
      stopDrawing()
      draw = new Draw({ source, type: kind === 'length' ? 'LineString' : 'Polygon', snapTolerance: 16 })
      draw.on('drawstart', (e) => {
        e.feature.getGeometry()?.on('change', (ev) => {
          sketch = measureGeometry(ev.target as Geometry)?.text ?? null
          report()
        })
      })
      draw.on('drawend', (e) => {
        e.feature.setId(nextId++)
        sketch = null
      })
      map.addInteraction(draw)
      snap?.raise()
      report()
    },
    /** Ends the line or polygon being drawn, keeping it. */
    finish() {
      draw?.finishDrawing()
    },
    undoPoint() {
      draw?.removeLastPoint()
    },
    clear() {
      draw?.abortDrawing()
      sketch = null
      source.clear()
      report()
    },
    stopDrawing() {
      stopDrawing()
      report()
    },
    /**
     * The panel closed: drawing and dragging stop, the taps go back to looking up parcels, and the
     * measurements stay on the map until cleared (nothing drawn: the layer goes too).
     */
    dispose() {
      draw?.abortDrawing()
      stopDrawing()
      map.removeInteraction(modify)
      snap?.dispose()
      snap = null
      onChange = null
      if (source.getFeatures().length > 0) return
      map.removeLayer(layer)
      kept.delete(map)
    },
  }
}
export type MeasureController = ReturnType<typeof createMeasure>
