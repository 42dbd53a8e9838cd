import type { SourceRecord } from '../types.ts'
import { decodeText, detectEncoding, type TextEncoding } from '../vietnamese-encodings.ts'

/** How a reader's text is to be read: an encoding given (--encoding, a .cpg), or found from the file's first records. */
export type TextChoice =
  { encoding: TextEncoding; from: 'option' | 'cpg' | 'format' } | { detect: true; fallback: TextEncoding }

/** The encoding a reader settled on, for the import summary. */
export type TextOutcome = { encoding: TextEncoding; from: 'option' | 'cpg' | 'format' | 'detected' }

// Enough strings beyond ASCII to tell the encodings apart; the records held meanwhile stay few.
const SAMPLE_STRINGS = 200
const SAMPLE_RECORDS = 2000

function convertProps(props: Record<string, unknown>, encoding: TextEncoding): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(props))
    out[decodeText(k, encoding)] = typeof v === 'string' ? decodeText(v, encoding) : v
  return out
}

/**
 * Turns records whose text is byte strings (one character per byte of the file) into Unicode NFC.
 * To detect the encoding, the first records are held until they hold enough text beyond ASCII (or
 * there are no more), the encoding is chosen from them, and they go on converted like the rest.
 */
export function decodeRecords(
  records: AsyncIterable<SourceRecord>,
  choice: TextChoice,
): { records: AsyncIterable<SourceRecord>; outcome(): TextOutcome | null } {
  let outcome: TextOutcome | null = 'encoding' in choice ? { encoding: choice.encoding, from: choice.from } : null
  async function* run(): AsyncGenerator<SourceRecord> {
    const it = records[Symbol.asyncIterator]()
    const held: SourceRecord[] = []
    if (!outcome) {
      const sample: string[] = []
      while (held.length < SAMPLE_RECORDS && sample.length < SAMPLE_STRINGS) {
        const next = await it.next()
        if (next.done) break
        held.push(next.value)
        for (const v of Object.values(next.value.props))
          if (typeof v === 'string' && /[^\x20-\x7e]/.test(v)) sample.push(v)
      }
      outcome = { encoding: detectEncoding(sample, 'detect' in choice ? choice.fallback : 'utf-8'), from: 'detected' }
    }
    const encoding = outcome.encoding
    try {
      for (const rec of held) yield { ...rec, props: convertProps(rec.props, encoding) }
      for (;;) {
        const next = await it.next()
        if (next.done) return
        yield { ...next.value, props: convertProps(next.value.props, encoding) }
      }
    } finally {
      // Closing this early (an import that stops) closes the reader's own iterator too.
      await it.return?.()
    }
  }
  return { records: run(), outcome: () => outcome }
}
