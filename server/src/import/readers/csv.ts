import { createReadStream, statSync } from 'node:fs'
import { CsvParser, detectDelimiter, type CsvRecord } from '../csv.ts'
import { ImportError } from '../errors.ts'
import type { SourceRecord } from '../types.ts'
import { decoderFor, type Reader } from './reader.ts'

/**
 * Streams a CSV chunk by chunk: the first record is the header, each later record becomes an
 * object keyed by it, numbered by the line it starts on (the header is line 1).
 */
export function readCsv(file: string, encoding: string | undefined): Reader {
  const total = statSync(file).size
  let done = 0
  // Fatal decoding: a file in a legacy code page fails loudly instead of importing garbled names.
  const decoder = decoderFor(encoding ?? 'utf-8', true)

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
        const error = r.fields.length === header.length ? undefined : `có ${r.fields.length} cột trong khi dòng tiêu đề có ${header.length} cột`
        yield error ? { n: r.line, props, geometry: null, error } : { n: r.line, props, geometry: null }
      }
    }
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        done += chunk.length
        let text: string
        try {
          text = decoder.decode(chunk, { stream: true })
        } catch {
          throw new ImportError(`Tệp CSV không phải ${decoder.encoding}; hãy lưu lại dưới dạng UTF-8 hoặc chỉ rõ --encoding (ví dụ windows-1258)`)
        }
        csv ??= new CsvParser(detectDelimiter(text.split('\n', 1)[0] ?? ''))
        yield* emit(csv.push(text))
      }
      const tail = decoder.decode()
      csv ??= new CsvParser(detectDelimiter(tail.split('\n', 1)[0] ?? ''))
      yield* emit([...csv.push(tail), ...csv.end()])
    } finally {
      stream.destroy()
    }
  }
  const gen = records()
  return {
    format: 'csv',
    unit: 'dòng',
    declaredCrs: null,
    prj: null,
    records: gen,
    progress: () => ({ done, total }),
    close: async () => void (await gen.return(undefined)),
  }
}
