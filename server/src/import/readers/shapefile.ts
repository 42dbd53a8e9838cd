import {
  closeSync,
  createReadStream,
  fstatSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  statSync,
} from 'node:fs'
import { basename, dirname, extname, join } from 'node:path'
import { Transform } from 'node:stream'
import type { Geometry } from 'geojson'
import shapefile from 'shapefile'
import { crsFromPrj } from '../crs.ts'
import { ImportError } from '../errors.ts'
import type { SourceRecord } from '../types.ts'
import { encodingFromLabel, type TextEncoding } from '../vietnamese-encodings.ts'
import type { Reader } from './reader.ts'
import { checkShapefileParts, type ShapefilePart } from './shapefile-check.ts'
import { decodeRecords, type TextChoice } from './text.ts'

/** The .dbf/.prj/.cpg beside a .shp, matched case-insensitively since Windows tools write PARCELS.DBF. */
function sibling(shp: string, ext: string): string | null {
  const dir = dirname(shp)
  const stem = basename(shp, extname(shp)).toLowerCase()
  const hit = readdirSync(dir).find((f) => f.toLowerCase() === `${stem}${ext}`)
  return hit ? join(dir, hit) : null
}

function partOnDisk(path: string): ShapefilePart {
  const fd = openSync(path, 'r')
  try {
    const head = Buffer.alloc(100)
    const n = readSync(fd, head, 0, head.length, 0)
    return { name: path, head: head.subarray(0, n), size: fstatSync(fd).size }
  } finally {
    closeSync(fd)
  }
}

/** x-user-defined keeps every byte (0x80–0xFF as U+F780–U+F7FF); back to one latin1 character per byte for decodeText. */
const byteString = (s: string) => s.replace(/[\uf780-\uf7ff]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xf700))

/** The .shp header's bounds [xmin, ymin, xmax, ymax] beyond ±180/±90: metres of a projected grid. */
const looksProjected = (b: number[]) => b.length >= 4 && b.slice(0, 4).some((v, i) => Math.abs(v) > (i % 2 ? 90 : 180))

/**
 * Streams a shapefile's features with their .dbf attributes. The attribute text is read as bytes and
 * converted by --encoding, else by the .cpg when it names UTF-8, Windows-1258, TCVN3 or VNI, else by
 * what the text itself looks like (legacy files often carry a .cpg of 1252 or none at all).
 */
export async function readShapefile(file: string, encoding: TextEncoding | undefined): Promise<Reader> {
  const dbf = sibling(file, '.dbf')
  const prjFile = sibling(file, '.prj')
  const cpgFile = sibling(file, '.cpg')
  const prj = prjFile ? readFileSync(prjFile, 'utf8').trim() : null
  const cpg = cpgFile ? encodingFromLabel(readFileSync(cpgFile, 'utf8')) : null
  const choice: TextChoice = encoding
    ? { encoding, from: 'option' }
    : cpg
      ? { encoding: cpg, from: 'cpg' }
      : { detect: true, fallback: 'utf-8' }

  checkShapefileParts([file, sibling(file, '.shx'), dbf].filter((f): f is string => f !== null).map(partOnDisk), file)
  const total = statSync(file).size
  let done = 0
  const counter = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      done += chunk.length
      cb(null, chunk)
    },
  })
  const shpStream = createReadStream(file).pipe(counter)
  const dbfStream = dbf ? createReadStream(dbf) : null
  let source: Awaited<ReturnType<typeof shapefile.open>>
  try {
    source = await shapefile.open(shpStream, dbfStream, { encoding: 'x-user-defined' })
  } catch (err) {
    shpStream.destroy()
    dbfStream?.destroy()
    throw new ImportError(`Không đọc được shapefile ${basename(file)}: ${(err as Error).message}`)
  }

  async function* records(): AsyncGenerator<SourceRecord> {
    let n = 0
    try {
      for (;;) {
        let next: { done: boolean; value?: { properties?: Record<string, unknown> | null; geometry?: Geometry | null } }
        try {
          next = await source.read()
        } catch (err) {
          throw new ImportError(`Shapefile hỏng sau đối tượng thứ ${n}: ${(err as Error).message}`)
        }
        if (next.done || !next.value) return
        n++
        const props: Record<string, unknown> = {}
        for (const [k, v] of Object.entries(next.value.properties ?? {}))
          props[byteString(k)] = typeof v === 'string' ? byteString(v) : v
        yield { n, props, geometry: next.value.geometry ?? null }
      }
    } finally {
      shpStream.destroy()
      dbfStream?.destroy()
    }
  }

  const text = decodeRecords(records(), choice)
  return {
    format: 'shapefile',
    unit: 'đối tượng',
    declaredCrs: prj ? crsFromPrj(prj) : null,
    prj,
    crsSource: 'tệp .prj',
    looksProjected: looksProjected(source.bbox),
    records: text.records,
    text: text.outcome,
    progress: () => ({ done, total }),
    close: async () => {
      shpStream.destroy()
      dbfStream?.destroy()
    },
  }
}
