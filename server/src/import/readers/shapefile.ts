import { createReadStream, readdirSync, readFileSync, statSync } from 'node:fs'
import { basename, dirname, extname, join } from 'node:path'
import { Transform } from 'node:stream'
import type { Geometry } from 'geojson'
import shapefile from 'shapefile'
import { crsFromPrj } from '../crs.ts'
import { ImportError } from '../errors.ts'
import type { SourceRecord } from '../types.ts'
import { decoderFor, type Reader } from './reader.ts'

/** The .dbf/.prj/.cpg beside a .shp, matched case-insensitively since Windows tools write PARCELS.DBF. */
function sibling(shp: string, ext: string): string | null {
  const dir = dirname(shp)
  const stem = basename(shp, extname(shp)).toLowerCase()
  const hit = readdirSync(dir).find((f) => f.toLowerCase() === `${stem}${ext}`)
  return hit ? join(dir, hit) : null
}

/**
 * Streams a shapefile's features with their .dbf attributes. The .cpg names the attribute encoding;
 * without one, UTF-8 (what current tools write) unless --encoding says otherwise.
 */
export async function readShapefile(file: string, encoding: string | undefined): Promise<Reader> {
  const dbf = sibling(file, '.dbf')
  const prjFile = sibling(file, '.prj')
  const cpgFile = sibling(file, '.cpg')
  const prj = prjFile ? readFileSync(prjFile, 'utf8').trim() : null
  const label = encoding ?? (cpgFile ? readFileSync(cpgFile, 'utf8').trim() : '')
  const decoder = decoderFor(label || 'utf-8', false)

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
    source = await shapefile.open(shpStream, dbfStream, { encoding: decoder.encoding })
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
        yield { n, props: next.value.properties ?? {}, geometry: next.value.geometry ?? null }
      }
    } finally {
      shpStream.destroy()
      dbfStream?.destroy()
    }
  }

  return {
    format: 'shapefile',
    unit: 'đối tượng',
    declaredCrs: prj ? crsFromPrj(prj) : null,
    prj,
    records: records(),
    progress: () => ({ done, total }),
    close: async () => {
      shpStream.destroy()
      dbfStream?.destroy()
    },
  }
}
