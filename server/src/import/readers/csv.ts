import { createReadStream, statSync } from 'node:fs'
import { open } from 'node:fs/promises'
import { pipeline, type Readable } from 'node:stream'
import { CsvError, parse, type Info } from 'csv-parse'
import { ImportError } from '../errors.ts'
import type { SourceRecord } from '../types.ts'
import type { TextEncoding } from '../vietnamese-encodings.ts'
import type { Reader } from './reader.ts'
import { decodeRecords } from './text.ts'

export type CsvRecord = { line: number; fields: string[] }

/** How much of the file's start the header line is looked for in, to pick the delimiter. */
const HEAD_BYTES = 64 * 1024
const BOM = Buffer.from([0xef, 0xbb, 0xbf])

/** Picks the delimiter from the header line: Vietnamese Excel writes `;`, others `,` or tab. */
export function detectDelimiter(headerLine: string): string {
  const counts = [',', ';', '\t'].map((d) => ({ d, n: headerLine.split(d).length - 1 }))
  counts.sort((a, b) => b.n - a.n)
  return counts[0]!.n > 0 ? counts[0]!.d : ','
}

/**
 * The records of a CSV as its bytes arrive (RFC 4180, by csv-parse), numbered by the line each starts
 * on. Fields are byte strings, one character per byte (latin1): decodeRecords turns them into Unicode
 * by --encoding or by what the text looks like. Quoted fields may hold the delimiter, `""` and line
 * breaks; CRLF and LF both end a record, whichever the file mixes; a UTF-8 byte-order mark is not part of
 * the first column's name. Spreadsheet exports put a stray quote inside an unquoted field or text after a
 * closing quote: both are kept as text (quotes included) rather than failing the whole file; a record
 * with more or fewer fields than the header is the caller's to report. A file ending inside quotes is
 * broken, not a record. `bytes` is told how far the parse has come.
 */
export async function* csvRecords(
  source: Readable,
  delimiter: string,
  bytes: (n: number) => void = () => {},
): AsyncGenerator<CsvRecord> {
  // The line a record starts on, counted here: csv-parse counts a CR as a line of its own. A record takes
  // its line and those its quoted line breaks add; each blank line skipped before it adds one. Counted as
  // each record is parsed (on_record; the records come out in that order), so an error knows where its
  // record began even when the records parsed before it have not been read yet.
  const starts: number[] = []
  let next = 1
  let lastEmpty = 0
  const startLine = (info: Pick<Info, 'empty_lines'>) => next + info.empty_lines - lastEmpty
  const parser = parse({
    delimiter,
    record_delimiter: ['\r\n', '\n'],
    encoding: 'latin1',
    relax_quotes: true,
    relax_column_count: true,
    skip_empty_lines: true,
    on_record: (fields: string[], info) => {
      const line = startLine(info)
      starts.push(line)
      next = line + 1 + fields.reduce((n, f) => n + f.split('\n').length - 1, 0)
      lastEmpty = info.empty_lines
      return fields
    },
  })
  // The parser ends (or fails) when the file does; a read error reaches it and so the loop below.
  pipeline(source, withoutBom, parser, () => {})
  try {
    for await (const fields of parser as AsyncIterable<string[]>) {
      bytes(parser.info.bytes)
      yield { line: starts.shift()!, fields }
    }
  } catch (err) {
    if (!(err instanceof CsvError)) throw err
    const at = startLine(err as unknown as Info)
    if (err.code === 'CSV_QUOTE_NOT_CLOSED')
      throw new ImportError(`Tệp CSV hỏng: dấu ngoặc kép mở ở dòng ${at} không được đóng`)
    throw new ImportError(`Tệp CSV hỏng ở dòng ${at}: ${err.message}`)
  } finally {
    parser.destroy()
    source.destroy()
  }
}

/**
 * The bytes without a leading UTF-8 byte-order mark. csv-parse's own `bom` option would also switch its
 * output to UTF-8, where the fields must stay byte strings until the encoding is known.
 */
async function* withoutBom(source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  let head = Buffer.alloc(0)
  let started = false
  for await (const chunk of source) {
    if (started) {
      yield chunk
      continue
    }
    head = Buffer.concat([head, chunk])
    if (head.length < BOM.length && BOM.subarray(0, head.length).equals(head)) continue
    started = true
    yield head.subarray(0, BOM.length).equals(BOM) ? head.subarray(BOM.length) : head
  }
  if (!started && head.length > 0 && !BOM.equals(head)) yield head
}

/** The first line of the file's start, as bytes read one character each. */
async function headLine(file: string): Promise<string> {
  const handle = await open(file)
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(HEAD_BYTES), 0, HEAD_BYTES, 0)
    return buffer.toString('latin1', 0, bytesRead).split('\n', 1)[0] ?? ''
  } finally {
    await handle.close()
  }
}

/**
 * Streams a CSV record by record: the first record is the header, each later record becomes an
 * object keyed by it, numbered by the line it starts on (the header is line 1).
 */
export function readCsv(file: string, encoding: TextEncoding | undefined): Reader {
  const total = statSync(file).size
  let done = 0
  async function* records(): AsyncGenerator<SourceRecord> {
    const delimiter = detectDelimiter(await headLine(file))
    const stream = createReadStream(file, { highWaterMark: 256 * 1024 })
    let header: string[] | null = null
    for await (const r of csvRecords(stream, delimiter, (n) => (done = n))) {
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
    done = total
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
