import { createReadStream, statSync } from 'node:fs'
import { CsvParser, detectDelimiter, type CsvRecord } from '../csv.ts'
import { ImportError } from '../errors.ts'
import type { SourceRecord } from '../types.ts'
import type { TextEncoding } from '../vietnamese-encodings.ts'
import type { Reader } from './reader.ts'
import { decodeRecords } from './text.ts'

/**
 * Streams a CSV chunk by chunk: the first record is the header, each later record becomes an
 * object keyed by it, numbered by the line it starts on (the header is line 1).
 */
export function readCsv(file: string, encoding: TextEncoding | undefined): Reader {
  const total = statSync(file).size
  let done = 0
  // UTF-8 is decoded fatally: a file in a legacy code page fails loudly instead of importing garbled
  // names. A legacy --encoding reads bytes as latin1 characters, which decodeRecords then converts.
  const legacy = encoding !== undefined && encoding !== 'utf-8'
  const decoder = legacy
    ? { decode: (chunk?: Buffer, _options?: TextDecodeOptions) => chunk?.toString('latin1') ?? '' }
    : new TextDecoder('utf-8', { fatal: true })

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
        done += chunk.length
        let text: string
        try {
          text = decoder.decode(chunk, { stream: true })
        } catch {
          throw new ImportError(
            'Tệp CSV không phải utf-8; hãy lưu lại dưới dạng UTF-8 hoặc chỉ rõ --encoding tcvn3|vni|windows-1258',
          )
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
  const text = legacy ? decodeRecords(gen, { encoding, from: 'option' }) : null
  return {
    format: 'csv',
    unit: 'dòng',
    declaredCrs: null,
    prj: null,
    records: text?.records ?? gen,
    text: () => text?.outcome() ?? { encoding: 'utf-8', from: encoding ? 'option' : 'format' },
    progress: () => ({ done, total }),
    close: async () => void (await gen.return(undefined)),
  }
}
