import { closeSync, openSync, readSync, statSync, createReadStream } from 'node:fs'
import chain from 'stream-chain'
import { parser } from 'stream-json'
import Assembler from 'stream-json/assembler.js'

/** What the top of a FeatureCollection says before its features: its `crs` member and where the first feature lies. */
export type GeojsonHead = { crs: unknown; firstPosition: [number, number] | null }

// A `crs` written after the features (allowed, rare) is looked for in the file's last bytes only, so a
// large file is not read twice for it.
const TAIL_BYTES = 64 * 1024

function firstPosition(geometry: unknown): [number, number] | null {
  let c = (geometry as { coordinates?: unknown } | null)?.coordinates
  while (Array.isArray(c) && Array.isArray(c[0])) c = c[0]
  return Array.isArray(c) && typeof c[0] === 'number' && typeof c[1] === 'number' ? [c[0], c[1]] : null
}

function tailMentionsCrs(file: string): boolean {
  const size = statSync(file).size
  const length = Math.min(size, TAIL_BYTES)
  const fd = openSync(file, 'r')
  try {
    const buf = Buffer.alloc(length)
    readSync(fd, buf, 0, length, size - length)
    return /"crs"\s*:/.test(buf.toString('latin1'))
  } finally {
    closeSync(fd)
  }
}

/**
 * Reads a FeatureCollection's top level up to its first feature (to the end only when a `crs` member
 * may follow the features): the declared CRS, and the first coordinate, which tells degrees from the
 * metres of a projected grid before any row is read. A malformed file gives an empty head; the
 * streaming reader then reports where it breaks.
 */
export async function readGeojsonHead(file: string): Promise<GeojsonHead> {
  const head: GeojsonHead = { crs: undefined, firstPosition: null }
  const wholeFile = tailMentionsCrs(file)
  const tokens = chain([createReadStream(file), parser({ streamValues: false })])
  let depth = 0
  let capture: { into: 'crs' | 'feature'; asm: Assembler } | null = null
  let pendingKey: string | null = null
  let inFeatures = false
  let sawFeature = false
  try {
    for await (const token of tokens as AsyncIterable<{ name: string; value?: unknown }>) {
      if (capture) {
        capture.asm.consume(token as never)
        if (capture.asm.done) {
          // The captured value's closing token ends the object or array counted when it opened.
          depth--
          if (capture.into === 'crs') head.crs = capture.asm.current
          else head.firstPosition = firstPosition((capture.asm.current as { geometry?: unknown } | null)?.geometry)
          capture = null
          if (head.crs !== undefined && sawFeature) break
          if (sawFeature && !wholeFile) break
        }
        continue
      }
      if (token.name === 'startObject' || token.name === 'startArray') {
        depth++
        if (depth === 2 && pendingKey === 'crs') {
          capture = { into: 'crs', asm: new Assembler() }
          capture.asm.consume(token as never)
        }
        if (depth === 2 && pendingKey === 'features' && token.name === 'startArray') inFeatures = true
        else if (depth === 3 && inFeatures && !sawFeature && token.name === 'startObject') {
          sawFeature = true
          capture = { into: 'feature', asm: new Assembler() }
          capture.asm.consume(token as never)
        }
        pendingKey = null
      } else if (token.name === 'endObject' || token.name === 'endArray') {
        depth--
        if (depth === 1) inFeatures = false
      } else if (token.name === 'keyValue' && depth === 1) {
        pendingKey = String(token.value)
      } else if (depth === 1 && pendingKey !== null) {
        // A primitive at the top: `"crs": "EPSG:3405"` as some writers put it, or null.
        if (pendingKey === 'crs' && token.name === 'stringValue')
          head.crs = { type: 'name', properties: { name: token.value } }
        pendingKey = null
      }
    }
  } catch {
    // The reader proper names the break with its feature number.
  } finally {
    tokens.destroy()
  }
  return head
}
