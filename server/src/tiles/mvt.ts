import type { Geometry, Position } from 'geojson'
import { PbfWriter } from 'pbf'

export const EXTENT = 4096
export const BUFFER = 64

type Point = [number, number]
type Tags = Record<string, string | number | boolean>

/** One feature in tile coordinates: type 1 point, 2 line, 3 polygon (the MVT geometry types). */
export type MvtFeature =
  | { type: 1; geometry: Point[]; tags: Tags; id?: number }
  | { type: 2 | 3; geometry: Point[][]; tags: Tags; id?: number }

export type MvtLayer = { name: string; features: MvtFeature[] }

const samePoint = (a: Point, b: Point) => a[0] === b[0] && a[1] === b[1]

/** Consecutive duplicates removed; quantising to the tile grid makes many. */
function dedupe(line: Position[]): Point[] {
  const out: Point[] = []
  for (const p of line) {
    // A 2D position is a point already (tiles cut many thousands a second); only a longer one is copied.
    const q: Point = p.length === 2 ? (p as Point) : [p[0] ?? 0, p[1] ?? 0]
    const last = out[out.length - 1]
    if (!last || !samePoint(last, q)) out.push(q)
  }
  return out
}

/** A ring without its closing point (MVT closes rings with ClosePath instead). */
export function openRing(ring: Position[]): Point[] {
  const out = dedupe(ring)
  while (out.length > 1 && samePoint(out[0]!, out[out.length - 1]!)) out.pop()
  return out
}

/**
 * Twice the signed area by the surveyor's formula in tile coordinates (y down). The MVT spec calls a
 * ring with positive area exterior; on screen it runs clockwise.
 */
export function ringArea2(ring: Point[]): number {
  let sum = 0
  for (let i = 0; i < ring.length; i++) {
    const a = ring[i]!
    const b = ring[(i + 1) % ring.length]!
    sum += a[0] * b[1] - b[0] * a[1]
  }
  return sum
}

/** The ring wound as the spec says (exterior clockwise on screen), or null when it has no area left. */
function wound(ring: Point[], exterior: boolean): Point[] | null {
  if (ring.length < 3) return null
  const area = ringArea2(ring)
  if (area === 0) return null
  return exterior === area > 0 ? ring : ring.slice().reverse()
}

function polygonRings(rings: Position[][]): Point[][] {
  const [outer, ...holes] = rings
  const shell = outer && wound(openRing(outer), true)
  if (!shell) return []
  const out = [shell]
  for (const hole of holes) {
    const h = wound(openRing(hole), false)
    if (h) out.push(h)
  }
  return out
}

function lines(parts: Position[][]): Point[][] {
  return parts.map(dedupe).filter((l) => l.length >= 2)
}

/**
 * GeoJSON already quantised to tile coordinates → one MVT feature, with rings wound as the spec says
 * and degenerate parts dropped; null when nothing drawable is left.
 */
export function toMvtFeature(geometry: Geometry, tags: Tags, id?: number): MvtFeature | null {
  const withId = id === undefined ? {} : { id }
  switch (geometry.type) {
    case 'Point':
    case 'MultiPoint': {
      const pts = geometry.type === 'Point' ? [geometry.coordinates] : geometry.coordinates
      const points = pts.map((p): Point => [p[0] ?? 0, p[1] ?? 0])
      return points.length > 0 ? { type: 1, geometry: points, tags, ...withId } : null
    }
    case 'LineString':
    case 'MultiLineString': {
      const parts = lines(geometry.type === 'LineString' ? [geometry.coordinates] : geometry.coordinates)
      return parts.length > 0 ? { type: 2, geometry: parts, tags, ...withId } : null
    }
    case 'Polygon':
    case 'MultiPolygon': {
      const polys = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates
      const rings = polys.flatMap(polygonRings)
      return rings.length > 0 ? { type: 3, geometry: rings, tags, ...withId } : null
    }
    default:
      return null
  }
}

// vector_tile.proto (MVT spec 2.1): field number << 3 | wire type (0 varint, 1 64-bit, 2 length-delimited).
const TILE_LAYERS = (3 << 3) | 2
const LAYER_VERSION = (15 << 3) | 0
const LAYER_NAME = (1 << 3) | 2
const LAYER_FEATURES = (2 << 3) | 2
const LAYER_KEYS = (3 << 3) | 2
const LAYER_VALUES = (4 << 3) | 2
const LAYER_EXTENT = (5 << 3) | 0
const FEATURE_ID = (1 << 3) | 0
const FEATURE_TAGS = (2 << 3) | 2
const FEATURE_TYPE = (3 << 3) | 0
const FEATURE_GEOMETRY = (4 << 3) | 2
const VALUE_STRING = (1 << 3) | 2
const VALUE_DOUBLE = (3 << 3) | 1
const VALUE_UINT = (5 << 3) | 0
const VALUE_SINT = (6 << 3) | 0
const VALUE_BOOL = (7 << 3) | 0
const MOVE_TO = 1
const LINE_TO = 2
const CLOSE_PATH = 7

/** Bytes of `v` (an unsigned 32-bit integer) as a varint. */
function varintLength(v: number): number {
  return v < 0x80 ? 1 : v < 0x4000 ? 2 : v < 0x200000 ? 3 : v < 0x10000000 ? 4 : 5
}

/** Writes unsigned 32-bit `v` as a varint; the caller has made room (5 bytes at most). */
function putVarint(w: PbfWriter, v: number): void {
  const buf = w.buf
  let pos = w.pos
  while (v > 0x7f) {
    buf[pos++] = (v & 0x7f) | 0x80
    v >>>= 7
  }
  buf[pos++] = v
  w.pos = pos
}

const zigzag = (n: number) => ((n << 1) ^ (n >> 31)) >>> 0

/**
 * Integers that go in a length-delimited field (tag indices, geometry commands), gathered first so that
 * the field's length, and so the feature's, is known before any of it is written: nothing is moved
 * afterwards to make room for a length, as pbf's writeMessage does for every message over 127 bytes.
 */
class Ints {
  a = new Uint32Array(1024)
  n = 0
  bytes = 0
  reset(): void {
    this.n = 0
    this.bytes = 0
  }
  room(k: number): void {
    if (this.n + k <= this.a.length) return
    const b = new Uint32Array(Math.max(this.a.length * 2, this.n + k))
    b.set(this.a.subarray(0, this.n))
    this.a = b
  }
  /** Only after room(). */
  push(v: number): void {
    this.a[this.n++] = v
    this.bytes += varintLength(v)
  }
  writeTo(w: PbfWriter): void {
    w.realloc(this.bytes)
    for (let i = 0; i < this.n; i++) putVarint(w, this.a[i]!)
  }
}

const command = (id: number, count: number) => ((count << 3) | id) >>> 0

/** The command-encoded geometry (MoveTo/LineTo/ClosePath, zigzag deltas from the previous point). */
function encodeGeometry(f: MvtFeature, out: Ints): void {
  out.reset()
  let x = 0
  let y = 0
  if (f.type === 1) {
    out.room(1 + 2 * f.geometry.length)
    out.push(command(MOVE_TO, f.geometry.length))
    for (const p of f.geometry) {
      out.push(zigzag(p[0] - x))
      out.push(zigzag(p[1] - y))
      x = p[0]
      y = p[1]
    }
    return
  }
  const polygon = f.type === 3
  for (const part of f.geometry) {
    let n = part.length
    if (n === 0) continue
    // A ring may come closed; ClosePath closes it on the wire.
    if (polygon && n > 1 && samePoint(part[0]!, part[n - 1]!)) n--
    out.room(2 * n + 3)
    out.push(command(MOVE_TO, 1))
    for (let i = 0; i < n; i++) {
      if (i === 1) out.push(command(LINE_TO, n - 1))
      const p = part[i]!
      out.push(zigzag(p[0] - x))
      out.push(zigzag(p[1] - y))
      x = p[0]
      y = p[1]
    }
    if (polygon) out.push(command(CLOSE_PATH, 1))
  }
}

type Value = string | number | boolean

/** A layer's keys and values, each written once and referred to by index (values by type and value). */
class Dictionary {
  keys = new Map<string, number>()
  strings = new Map<string, number>()
  numbers = new Map<number, number>()
  bools = new Map<boolean, number>()
  values: Value[] = []
  key(k: string): number {
    let i = this.keys.get(k)
    if (i === undefined) this.keys.set(k, (i = this.keys.size))
    return i
  }
  value(v: Value): number {
    const map: Map<Value, number> =
      typeof v === 'string' ? this.strings : typeof v === 'number' ? this.numbers : this.bools
    let i = map.get(v)
    if (i === undefined) {
      map.set(v, (i = this.values.length))
      this.values.push(v)
    }
    return i
  }
}

const MIN_SINT = -(2 ** 52)

const utf8 = new TextEncoder()

/**
 * A length-delimited UTF-8 string. Not pbf's writeString: it garbles characters past U+1FFFF (it ORs
 * 0x10000 into the code point instead of adding it), and Chữ Nôm in place names live there.
 */
function writeString(w: PbfWriter, s: string): void {
  const length = Buffer.byteLength(s, 'utf8')
  w.realloc(5 + length)
  putVarint(w, length)
  utf8.encodeInto(s, w.buf.subarray(w.pos, w.pos + length))
  w.pos += length
}

function writeValue(v: Value, w: PbfWriter): void {
  if (typeof v === 'string') {
    w.writeVarint(VALUE_STRING)
    writeString(w, v)
  } else if (typeof v === 'boolean') {
    w.writeVarint(VALUE_BOOL)
    w.writeVarint(v ? 1 : 0)
  } else if (!Number.isSafeInteger(v) || v < MIN_SINT) {
    // Fractions go as doubles, and so do integers a varint would not carry exactly: past 2^53 pbf may
    // throw, and below -2^52 the zigzag form (-2v - 1) is past 2^53 (vt-pbf wrote those wrong).
    w.writeVarint(VALUE_DOUBLE)
    w.writeDouble(v)
  } else if (v < 0) {
    w.writeVarint(VALUE_SINT)
    w.writeSVarint(v)
  } else {
    w.writeVarint(VALUE_UINT)
    w.writeVarint(v)
  }
}

// Reused by every call (encoding is synchronous), so a tile allocates little besides its result.
const tileOut = new PbfWriter()
const layerOut = new PbfWriter()
const idOut = new PbfWriter()
const tagInts = new Ints()
const geometryInts = new Ints()

function writeLayer(layer: MvtLayer, w: PbfWriter): void {
  w.writeVarint(LAYER_VERSION)
  w.writeVarint(2)
  w.writeVarint(LAYER_NAME)
  writeString(w, layer.name)
  w.writeVarint(LAYER_EXTENT)
  w.writeVarint(EXTENT)
  const dict = new Dictionary()
  for (const f of layer.features) {
    tagInts.reset()
    for (const k in f.tags) {
      const v = f.tags[k]
      if (v === undefined || v === null) continue
      tagInts.room(2)
      tagInts.push(dict.key(k))
      tagInts.push(dict.value(v))
    }
    encodeGeometry(f, geometryInts)
    // Ids are MVT uint64s; pbf writes one the way the protocol wants (10 bytes for a negative).
    const hasId = typeof f.id === 'number' && !Number.isNaN(f.id)
    idOut.pos = 0
    if (hasId) idOut.writeVarint(f.id!)
    const length =
      (hasId ? 1 + idOut.pos : 0) +
      1 +
      varintLength(tagInts.bytes) +
      tagInts.bytes +
      2 +
      1 +
      varintLength(geometryInts.bytes) +
      geometryInts.bytes
    w.realloc(6 + length)
    putVarint(w, LAYER_FEATURES)
    putVarint(w, length)
    if (hasId) {
      putVarint(w, FEATURE_ID)
      w.buf.set(idOut.buf.subarray(0, idOut.pos), w.pos)
      w.pos += idOut.pos
    }
    putVarint(w, FEATURE_TAGS)
    putVarint(w, tagInts.bytes)
    tagInts.writeTo(w)
    putVarint(w, FEATURE_TYPE)
    putVarint(w, f.type)
    putVarint(w, FEATURE_GEOMETRY)
    putVarint(w, geometryInts.bytes)
    geometryInts.writeTo(w)
  }
  for (const k of dict.keys.keys()) {
    w.writeVarint(LAYER_KEYS)
    writeString(w, k)
  }
  for (const v of dict.values) {
    w.writeVarint(LAYER_VALUES)
    w.writeRawMessage(writeValue, v)
  }
}

/**
 * The tile as protobuf bytes (MVT 2.1, extent 4096), or null when no layer has a feature (answered as
 * 204). Written straight from the features: keys and values in order of first use, each feature's id,
 * tags, type and geometry.
 */
export function encodeTile(layers: MvtLayer[]): Uint8Array<ArrayBuffer> | null {
  tileOut.pos = 0
  for (const layer of layers) {
    if (layer.features.length === 0) continue
    layerOut.pos = 0
    writeLayer(layer, layerOut)
    tileOut.writeVarint(TILE_LAYERS)
    tileOut.writeBytes(layerOut.buf.subarray(0, layerOut.pos))
  }
  if (tileOut.pos === 0) return null
  // A tight copy: the writer's buffer is reused by the next tile.
  return tileOut.buf.slice(0, tileOut.pos)
}
