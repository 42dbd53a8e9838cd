import { BAUD_RATES } from '../settings.ts'
import { createLineSplitter, parseLine, type LineOutcome } from './nmea.ts'
import type { SerialPortLike } from './web-serial.ts'

/** How long one baud rate is listened to before the next is tried. */
export const DETECT_MS = 1500
/** Checksummed sentences that prove a baud rate right (noise at the wrong rate never checksums twice). */
const PROOF = 2

/** One open port being read: its lines go to `onLine`; `done` settles when the port stops (unplugged, closed). */
export type OpenReceiver = { baud: number; close(): Promise<void>; done: Promise<void> }

/**
 * Reads a port at one baud rate: bytes as Latin-1 (NMEA is ASCII; a wrong rate yields any byte), split
 * into lines. The reader runs until the port ends or `close()`.
 */
async function readAt(port: SerialPortLike, baud: number, onLine: (line: string) => void) {
  await port.open({ baudRate: baud })
  const reader = port.readable?.getReader()
  if (!reader) {
    await port.close().catch(() => undefined)
    throw new Error('port not readable')
  }
  const decoder = new TextDecoder('latin1')
  const split = createLineSplitter(onLine)
  let closing = false
  const done = (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read()
        if (done) break
        if (value) split(decoder.decode(value, { stream: true }))
      }
    } catch (err) {
      if (!closing) console.info('receiver read ended', err)
    } finally {
      reader.releaseLock()
      await port.close().catch(() => undefined)
    }
  })()
  return {
    done,
    async close() {
      closing = true
      await reader.cancel().catch(() => undefined)
      await done
    },
  }
}

/**
 * Opens the port at the remembered baud rate, else finds it: each common rate is listened to for up to
 * DETECT_MS until two sentences with good checksums arrive. Bluetooth ports ignore the rate, so the
 * first try answers. Every line read, during detection too, goes to `onLine` once the rate is proven.
 */
export async function openReceiver(
  port: SerialPortLike,
  opts: {
    preferredBaud: number | null
    /** Called once the baud rate is proven, before the lines read so far are handed on. */
    onProven?: (baud: number) => void
    onLine: (line: string, outcome: LineOutcome) => void
    signal?: AbortSignal
  },
): Promise<OpenReceiver | null> {
  const rates = [...new Set([...(opts.preferredBaud ? [opts.preferredBaud] : []), ...BAUD_RATES])]
  for (const baud of rates) {
    if (opts.signal?.aborted) return null
    let good = 0
    let proven: (() => void) | null = null
    const held: [string, LineOutcome][] = []
    let live = false
    const provenNow = new Promise<void>((resolve) => (proven = resolve))
    const open = await readAt(port, baud, (line) => {
      const outcome = parseLine(line)
      if (live) return opts.onLine(line, outcome)
      held.push([line, outcome])
      if (outcome.kind === 'sentence' && ++good >= PROOF) proven?.()
    }).catch((err: unknown) => {
      console.info(`receiver not opened at ${baud}`, err)
      return null
    })
    if (!open) continue
    const timeout = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), DETECT_MS))
    const outcome = await Promise.race([
      provenNow.then(() => 'proven' as const),
      timeout,
      open.done.then(() => 'ended' as const),
    ])
    if (outcome === 'proven') {
      opts.onProven?.(baud)
      live = true
      for (const [line, o] of held) opts.onLine(line, o)
      return { baud, close: open.close, done: open.done }
    }
    await open.close()
    if (outcome === 'ended') return null
  }
  return null
}
