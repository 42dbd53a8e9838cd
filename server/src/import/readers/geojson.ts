import { createReadStream, statSync } from 'node:fs'
import { Transform } from 'node:stream'
import type { Geometry } from 'geojson'
import chain from 'stream-chain'
import { parser } from 'stream-json'
import { pick } from 'stream-json/filters/pick.js'
import { streamArray } from 'stream-json/streamers/stream-array.js'
import { crsFromGeojsonMember } from '../crs.ts'
import { ImportError } from '../errors.ts'
import type { SourceRecord } from '../types.ts'
import { readGeojsonHead } from './geojson-head.ts'
import type { Reader } from './reader.ts'
import { decodeRecords } from './text.ts'
import type { TextEncoding } from '../vietnamese-encodings.ts'

/**
 * Streams the `features` of a FeatureCollection one at a time, so a file far larger than memory
 * is read in constant memory; the rest of the document is skipped token by token. The top of the
 * file is read first for its `crs` member and whether its coordinates are degrees or metres.
 */
export async function readGeojson(file: string, encoding: TextEncoding | undefined): Promise<Reader> {
  const head = await readGeojsonHead(file)
  const declared = crsFromGeojsonMember(head.crs)
  const first = head.firstPosition
  const total = statSync(file).size
  let done = 0
  async function* records(): AsyncGenerator<SourceRecord> {
    const counter = new Transform({
      transform(chunk: Buffer, _enc, cb) {
        done += chunk.length
        cb(null, chunk)
      },
    })
    const features = chain([
      createReadStream(file),
      counter,
      parser({ streamValues: false }),
      pick({ filter: 'features' }),
      streamArray(),
    ])
    const iterator = features[Symbol.asyncIterator]()
    let n = 0
    try {
      for (;;) {
        let next: IteratorResult<{ value: unknown }>
        try {
          next = await iterator.next()
        } catch (err) {
          throw new ImportError(`Tệp GeoJSON hỏng sau đối tượng thứ ${n}: ${(err as Error).message}`)
        }
        if (next.done) return
        n++
        yield toRecord(n, next.value.value)
      }
    } finally {
      // Stopping early (a failed import) must still close the file.
      features.destroy()
    }
  }
  const gen = records()
  // JSON is Unicode, but its text may be TCVN3 or VNI that a tool read as Latin-1: recognised like a .dbf's.
  const text = decodeRecords(gen, encoding ? { encoding, from: 'option' } : { detect: true, fallback: 'utf-8' }, {
    unicode: true,
  })
  return {
    format: 'geojson',
    unit: 'đối tượng',
    declaredCrs: declared?.crs ?? null,
    prj: declared?.declared ?? null,
    crsSource: 'thành phần crs của tệp GeoJSON',
    ...(first ? { looksProjected: Math.abs(first[0]) > 180 || Math.abs(first[1]) > 90 } : {}),
    records: text.records,
    text: text.outcome,
    progress: () => ({ done, total }),
    close: async () => void (await gen.return(undefined)),
  }
}

function toRecord(n: number, value: unknown): SourceRecord {
  if (typeof value !== 'object' || value === null || (value as { type?: unknown }).type !== 'Feature') {
    return { n, props: {}, geometry: null, error: 'không phải một Feature GeoJSON' }
  }
  const f = value as { properties?: unknown; geometry?: unknown }
  const props =
    typeof f.properties === 'object' && f.properties !== null ? (f.properties as Record<string, unknown>) : {}
  return { n, props, geometry: (f.geometry ?? null) as Geometry | null }
}
