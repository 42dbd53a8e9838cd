import { createReadStream, statSync } from 'node:fs'
import { CsvParser, detectDelimiter, type CsvRecord } from '../csv.ts'
import type { SourceRecord } from '../types.ts'
import type { TextEncoding } from '../vietnamese-encodings.ts'
import type { Reader } from './reader.ts'
import { decodeRecords } from './text.ts'

const BOM = Buffer.from([0xef, 0xbb, 0xbf])

/**
 * Streams a CSV chunk by chunk: the first record is the header, each later record becomes an
 * object keyed by it, numbered by the line it starts on (the header is line 1).
 */
export function readCsv(file: string, encoding: TextEncoding | undefined): Reader {
  const total = statSync(file).size
  let done = 0
  async function* records(): AsyncGenerator<SourceRecord> {
    const stream = createReadStream(file, { highWaterMark: 256 * 1024 })
    let csv: CsvParser | null = null
    let header: string[] | null = null
    const emit = function* (recs: CsvRecord[]): Generator<SourceRecord> {
      for (const r of recs) {
        if (!header) {
          header = r.fields.map((h, i) => h.trim() || `cot_${i + 1}`)
          continue
        }
        const props: Record<string, unknown> = {}
        header.forEach((h, i) => (props[h] = r.fields[i]))
        const error =
          r.fields.length === header.length
            ? undefined
            : `có ${r.fields.length} cột trong khi dòng tiêu đề có ${header.length} cột`
        yield error ? { n: r.line, props, geometry: null, error } : { n: r.line, props, geometry: null }
      }
    }
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        // Bytes as latin1 characters, one per byte: decodeRecords turns them into Unicode by --encoding
        // or by what the text looks like. A UTF-8 byte-order mark is not part of the first column's name.
        const text = chunk.toString('latin1', done === 0 && chunk.subarray(0, 3).equals(BOM) ? 3 : 0)
        done += chunk.length
        csv ??= new CsvParser(detectDelimiter(text.split('\n', 1)[0] ?? ''))
        yield* emit(csv.push(text))
      }
      csv ??= new CsvParser(',')
      yield* emit(csv.end())
    } finally {
      stream.destroy()
    }
  }
  const gen = records()
  const text = decodeRecords(gen, encoding ? { encoding, from: 'option' } : { detect: true, fallback: 'utf-8' }, {
    strictUtf8: true,
  })
  return {
    format: 'csv',
    unit: 'dòng',
    declaredCrs: null,
    prj: null,
    records: text.records,
    text: text.outcome,
    progress: () => ({ done, total }),
    close: async () => void (await gen.return(undefined)),
  }
}
