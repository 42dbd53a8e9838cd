import { ImportError } from '../errors.ts'
import type { SourceRecord } from '../types.ts'
import { chooseEncoding, decodeText, isValidUtf8, type TextEncoding } from '../vietnamese-encodings.ts'

/** How a reader's text is to be read: an encoding given (--encoding, a .cpg), or found from the file's first records. */
export type TextChoice =
  { encoding: TextEncoding; from: 'option' | 'cpg' | 'format' } | { detect: true; fallback: TextEncoding }

/** The encoding a reader settled on, for the import summary. */
export type TextOutcome = { encoding: TextEncoding; from: 'option' | 'cpg' | 'format' | 'detected' }

// Enough strings beyond ASCII to tell the encodings apart; the records held meanwhile stay few.
const SAMPLE_STRINGS = 200
const SAMPLE_RECORDS = 2000

/** A Unicode string as the byte string of its UTF-8, which decodeText reads (and un-mojibakes). */
const utf8Bytes = (s: string) => Buffer.from(s, 'utf8').toString('latin1')

const notUtf8 = 'Tệp có chữ không phải utf-8; hãy lưu lại dưới dạng UTF-8 hoặc chỉ rõ --encoding tcvn3|vni|windows-1258'

/**
 * Turns records whose text is byte strings (one character per byte of the file) into Unicode NFC;
 * with `unicode`, the records' text is already Unicode (GeoJSON, KML, a workbook) and is read as its
 * UTF-8 bytes, so TCVN3 or VNI that a tool decoded as Latin-1 and saved as UTF-8 ("quËn S¬n Trµ") is
 * recognised and converted like the bytes themselves. To detect the encoding, the first records are
 * held until they hold enough text beyond ASCII (or there are no more), the encoding is chosen from
 * them, and they go on converted like the rest. With `strictUtf8` (CSV's rule), text that reads as
 * no encoding is refused rather than guessed, and UTF-8 given or found is checked string by string:
 * either way one line names --encoding.
 */
export function decodeRecords(
  records: AsyncIterable<SourceRecord>,
  choice: TextChoice,
  opts: { unicode?: boolean; strictUtf8?: boolean } = {},
): { records: AsyncIterable<SourceRecord>; outcome(): TextOutcome | null } {
  let outcome: TextOutcome | null = 'encoding' in choice ? { encoding: choice.encoding, from: choice.from } : null
  const bytes = opts.unicode ? utf8Bytes : (s: string) => s
  async function* run(): AsyncGenerator<SourceRecord> {
    const it = records[Symbol.asyncIterator]()
    const held: SourceRecord[] = []
    if (!outcome) {
      const sample: string[] = []
      while (held.length < SAMPLE_RECORDS && sample.length < SAMPLE_STRINGS) {
        const next = await it.next()
        if (next.done) break
        held.push(next.value)
        for (const [k, v] of Object.entries(next.value.props)) {
          if (/[^\x20-\x7e]/.test(k)) sample.push(bytes(k))
          if (typeof v === 'string' && /[^\x20-\x7e]/.test(v)) sample.push(bytes(v))
        }
      }
      const chosen = chooseEncoding(sample, 'detect' in choice ? choice.fallback : 'utf-8')
      if (!chosen.confident && opts.strictUtf8 && sample.some((s) => !isValidUtf8(s))) throw new ImportError(notUtf8)
      outcome = { encoding: chosen.encoding, from: 'detected' }
    }
    const encoding = outcome.encoding
    const strict = encoding === 'utf-8' && !opts.unicode && opts.strictUtf8 === true
    const text = (s: string) => {
      if (strict && !isValidUtf8(s)) throw new ImportError(notUtf8)
      return decodeText(bytes(s), encoding)
    }
    // Unicode text that reads as UTF-8 is already what it should be.
    const convert =
      opts.unicode && encoding === 'utf-8'
        ? (props: Record<string, unknown>) => props
        : (props: Record<string, unknown>) => {
            const out: Record<string, unknown> = {}
            for (const [k, v] of Object.entries(props)) out[text(k)] = typeof v === 'string' ? text(v) : v
            return out
          }
    try {
      for (const rec of held) yield { ...rec, props: convert(rec.props) }
      for (;;) {
        const next = await it.next()
        if (next.done) return
        yield { ...next.value, props: convert(next.value.props) }
      }
    } finally {
      // Closing this early (an import that stops) closes the reader's own iterator too.
      await it.return?.()
    }
  }
  return { records: run(), outcome: () => outcome }
}
