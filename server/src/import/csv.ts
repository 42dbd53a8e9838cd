import { ImportError } from './errors.ts'

export type CsvRecord = { line: number; fields: string[] }

const S = { start: 0, unquoted: 1, quoted: 2, quoteInQuoted: 3 } as const
type State = (typeof S)[keyof typeof S]

/**
 * Incremental RFC 4180 parser: feed text chunks as they come off the disk, get whole records back.
 * Quoted fields may hold the delimiter, `""` and line breaks; CRLF and LF both end a record. A stray
 * quote inside an unquoted field, or text after a closing quote, is kept as text rather than failing
 * the whole file, since spreadsheet exports do that.
 */
export class CsvParser {
  readonly delimiter: string
  private state: State = S.start
  private field = ''
  private fields: string[] = []
  private line = 1
  private recordLine = 1
  private inRecord = false

  constructor(delimiter = ',') {
    this.delimiter = delimiter
  }

  push(chunk: string): CsvRecord[] {
    const out: CsvRecord[] = []
    const d = this.delimiter
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i]!
      if (!this.inRecord) {
        this.inRecord = true
        this.recordLine = this.line
      }
      switch (this.state) {
        case S.start:
          if (c === '"') this.state = S.quoted
          else if (c === d) this.endField()
          else if (c === '\n') this.endRecord(out)
          else if (c !== '\r') {
            this.field += c
            this.state = S.unquoted
          }
          break
        case S.unquoted:
          if (c === d) this.endField()
          else if (c === '\n') this.endRecord(out)
          else if (c !== '\r') this.field += c
          break
        case S.quoted:
          if (c === '"') this.state = S.quoteInQuoted
          else this.field += c
          break
        case S.quoteInQuoted:
          if (c === '"') {
            this.field += '"'
            this.state = S.quoted
          } else if (c === d) this.endField()
          else if (c === '\n') this.endRecord(out)
          else if (c !== '\r') {
            this.field += c
            this.state = S.unquoted
          }
          break
      }
      if (c === '\n') this.line++
    }
    return out
  }

  /** Flushes the last record; a file ending inside quotes is broken, not a record. */
  end(): CsvRecord[] {
    if (this.state === S.quoted)
      throw new ImportError(`Tệp CSV hỏng: dấu ngoặc kép mở ở dòng ${this.recordLine} không được đóng`)
    const out: CsvRecord[] = []
    if (this.inRecord) this.endRecord(out)
    return out
  }

  private endField() {
    this.fields.push(this.field)
    this.field = ''
    this.state = S.start
  }

  private endRecord(out: CsvRecord[]) {
    this.endField()
    const blank = this.fields.length === 1 && this.fields[0] === ''
    if (!blank) out.push({ line: this.recordLine, fields: this.fields })
    this.fields = []
    this.inRecord = false
  }
}

/** Picks the delimiter from the header line: Vietnamese Excel writes `;`, others `,` or tab. */
export function detectDelimiter(headerLine: string): string {
  const counts = [',', ';', '\t'].map((d) => ({ d, n: headerLine.split(d).length - 1 }))
  counts.sort((a, b) => b.n - a.n)
  return counts[0]!.n > 0 ? counts[0]!.d : ','
}
