import { QUALITY_RANK, type Fix, type FixQuality } from './fix.ts'
import { NO_GEOLOCATION, phoneErrorMessage, phoneFix } from './phone.ts'
import type { LineOutcome, ReceiverReading } from './receiver/nmea.ts'
import type { OpenReceiver } from './receiver/serial.ts'
import type { SerialLike, SerialPortLike } from './receiver/web-serial.ts'
import { loadSettings, saveSettings, type PositionSettings, type SourceKind } from './settings.ts'

/** No GGA from the receiver for this long and the position is stale (the link dropped or the receiver hung). */
export const RECEIVER_STALE_MS = 3000
/** The phone's browser reports a position when it moves, not on a clock: only a long silence is stale. */
export const PHONE_STALE_MS = 30_000

/**
 * How the position stands: `live`; `stale` (nothing new for the limit above); `no-solution` (the receiver
 * talks but has no fix); `dropped` (a worse solution than this receiver had since connecting, until
 * accepted); `waiting` for a first fix; `error` (the phone refused); `off` (nobody asked for a position).
 */
export type PositionStatus = 'off' | 'waiting' | 'live' | 'stale' | 'no-solution' | 'dropped' | 'error'
export type ReceiverStatus = 'unsupported' | 'idle' | 'connecting' | 'connected' | 'lost'

export type PositionSnapshot = {
  settings: PositionSettings
  /** What feeds the app now: the receiver when chosen and connected, else the phone. */
  active: SourceKind
  receiver: {
    status: ReceiverStatus
    baud: number | null
    /** Why the receiver is not (or no longer) the source, in Vietnamese. */
    message: string | null
    sentences: number
    badChecksums: number
  }
  fix: Fix | null
  /** The solution type now: may be 'none' while `fix` still holds the last position, for the record. */
  quality: FixQuality | null
  /** When the active source last spoke. */
  lastAt: number | null
  /** The best solution rank since the receiver connected (or the user accepted a lower one). */
  bestRank: number
  phoneError: string | null
  status: PositionStatus
  now: number
}

export type SourceDeps = {
  geolocation: Geolocation | null
  serial: SerialLike | null
  now: () => number
  secureContext: boolean
  load: () => PositionSettings
  save: (s: PositionSettings) => void
  /** The receiver's code, loaded when a receiver is first used. */
  receiverModule: () => Promise<{
    openReceiver: typeof import('./receiver/serial.ts').openReceiver
    createReceiverTracker: typeof import('./receiver/nmea.ts').createReceiverTracker
  }>
}

export function statusOf(s: Omit<PositionSnapshot, 'status'>, consumers: number): PositionStatus {
  if (s.active === 'phone' && consumers === 0) return 'off'
  if (s.active === 'phone' && s.phoneError && !s.fix) return 'error'
  if (s.lastAt === null) return 'waiting'
  if (s.now - s.lastAt > (s.active === 'receiver' ? RECEIVER_STALE_MS : PHONE_STALE_MS)) return 'stale'
  if (s.quality === 'none') return 'no-solution'
  if (s.active === 'receiver' && s.quality !== null && QUALITY_RANK[s.quality] < s.bestRank) return 'dropped'
  return s.fix ? 'live' : 'waiting'
}

/**
 * The one position source of the app. The map, the walk and stakeout read it; the GPS panel chooses
 * the phone's location or a GNSS receiver on a serial port (remembered), and when the receiver goes
 * away the phone takes over at once, saying so. The phone is watched only while some screen holds the
 * position (`acquire`); the receiver's port stays open until the user disconnects it.
 */
export function createPositionSource(deps: SourceDeps) {
  const listeners = new Set<() => void>()
  let consumers = 0
  let watchId: number | null = null
  let ticker: ReturnType<typeof setInterval> | null = null
  let receiver: OpenReceiver | null = null
  let connecting: AbortController | null = null
  let base: Omit<PositionSnapshot, 'status'> = {
    settings: deps.load(),
    active: 'phone',
    receiver: {
      status: deps.serial ? 'idle' : 'unsupported',
      baud: null,
      message: null,
      sentences: 0,
      badChecksums: 0,
    },
    fix: null,
    quality: null,
    lastAt: null,
    bestRank: 0,
    phoneError: deps.geolocation ? null : NO_GEOLOCATION,
    now: deps.now(),
  }
  let snapshot: PositionSnapshot = { ...base, status: statusOf(base, 0) }

  function set(patch: Partial<Omit<PositionSnapshot, 'status'>>) {
    base = { ...base, ...patch, now: deps.now() }
    snapshot = { ...base, status: statusOf(base, consumers) }
    syncPhone()
    syncTicker()
    for (const l of listeners) l()
  }

  // The phone is watched while a screen wants a position and the receiver is not feeding it.
  function syncPhone() {
    const want = consumers > 0 && base.active === 'phone' && deps.geolocation !== null
    if (want && watchId === null) {
      watchId = deps.geolocation!.watchPosition(
        (p) => {
          if (base.active !== 'phone') return
          set({ fix: phoneFix(p), quality: 'phone', lastAt: deps.now(), phoneError: null })
        },
        (err) => {
          // A timeout with a fix on screen keeps the fix: the watch goes on and the stale rule speaks.
          if (err.code === err.TIMEOUT && base.fix) return
          if (err.code === err.PERMISSION_DENIED) stopPhone()
          set({ phoneError: phoneErrorMessage(err.code, deps.secureContext) })
        },
        { enableHighAccuracy: true, maximumAge: 0, timeout: 30_000 },
      )
    } else if (!want) stopPhone()
  }
  function stopPhone() {
    if (watchId !== null) deps.geolocation?.clearWatch(watchId)
    watchId = null
  }

  // Age and staleness move with the clock, not only with fixes: re-read twice a second while anyone looks.
  function syncTicker() {
    const want = listeners.size > 0 && base.lastAt !== null
    if (want && !ticker)
      ticker = setInterval(() => {
        const next = { ...base, now: deps.now() }
        const status = statusOf(next, consumers)
        const second = (t: number) => Math.floor((t - (base.lastAt ?? t)) / 1000)
        if (status === snapshot.status && second(next.now) === second(snapshot.now)) return
        base = next
        snapshot = { ...base, status }
        for (const l of listeners) l()
      }, 250)
    else if (!want && ticker) {
      clearInterval(ticker)
      ticker = null
    }
  }

  function onReading(r: ReceiverReading) {
    const rank = QUALITY_RANK[r.quality]
    set({ fix: r.fix, quality: r.quality, lastAt: deps.now(), bestRank: Math.max(base.bestRank, rank) })
  }

  function countLine(outcome: LineOutcome) {
    const rx = base.receiver
    if (outcome.kind === 'sentence') base = { ...base, receiver: { ...rx, sentences: rx.sentences + 1 } }
    else if (outcome.kind === 'bad-checksum') set({ receiver: { ...rx, badChecksums: rx.badChecksums + 1 } })
  }

  function fallBack(status: ReceiverStatus, message: string | null) {
    receiver = null
    set({
      active: 'phone',
      receiver: { ...base.receiver, status, message },
      fix: null,
      quality: null,
      lastAt: null,
      bestRank: 0,
    })
  }

  /** Reads a receiver on this port: finds the baud rate, then feeds the app until it stops. */
  async function openPort(port: SerialPortLike): Promise<boolean> {
    await disconnect(false)
    const abort = (connecting = new AbortController())
    set({ receiver: { status: 'connecting', baud: null, message: null, sentences: 0, badChecksums: 0 } })
    const mod = await deps.receiverModule()
    const tracker = mod.createReceiverTracker({ antennaHeightM: () => base.settings.antennaHeightM })
    // Lines count from the moment the baud rate is proven (those read while proving it included).
    let feeding = false
    const open = await mod.openReceiver(port, {
      preferredBaud: base.settings.baud,
      signal: abort.signal,
      onProven: () => {
        if (abort.signal.aborted) return
        feeding = true
        set({ active: 'receiver', fix: null, quality: null, lastAt: null, bestRank: 0 })
      },
      onLine: (_line, outcome) => {
        if (!feeding || abort.signal.aborted) return
        countLine(outcome)
        if (outcome.kind !== 'sentence') return
        const r = tracker.feed(outcome.sentence, deps.now())
        if (r) onReading(r)
      },
    })
    if (abort.signal.aborted) {
      await open?.close()
      return false
    }
    connecting = null
    if (!open) {
      fallBack(
        'idle',
        'Không đọc được dữ liệu NMEA từ cổng này ở các tốc độ thường dùng. Hãy bật xuất NMEA trên máy thu.',
      )
      return false
    }
    receiver = open
    const settings = { ...base.settings, source: 'receiver' as const, baud: open.baud }
    deps.save(settings)
    set({
      settings,
      active: 'receiver',
      receiver: { ...base.receiver, status: 'connected', baud: open.baud, message: null },
    })
    void open.done.then(() => {
      if (receiver === open) fallBack('lost', 'Mất kết nối máy thu. Đang dùng GPS của điện thoại.')
    })
    return true
  }

  async function disconnect(choosePhone: boolean) {
    connecting?.abort()
    connecting = null
    const open = receiver
    receiver = null
    await open?.close()
    if (choosePhone) {
      const settings = { ...base.settings, source: 'phone' as const }
      deps.save(settings)
      set({ settings })
    }
    if (open || choosePhone) fallBack('idle', null)
  }

  return {
    subscribe(listener: () => void) {
      listeners.add(listener)
      syncTicker()
      return () => {
        listeners.delete(listener)
        syncTicker()
      }
    },
    getSnapshot: () => snapshot,
    /** A screen that uses the position holds it; the returned function lets go. */
    acquire(): () => void {
      consumers += 1
      set({})
      let held = true
      return () => {
        if (!held) return
        held = false
        consumers -= 1
        set({})
      }
    },
    openPort,
    /** The receiver chosen before and allowed on this device: opened again without asking. */
    async reconnect(): Promise<void> {
      if (base.settings.source !== 'receiver' || !deps.serial || receiver || connecting) return
      const [port] = await deps.serial.getPorts()
      if (port) await openPort(port)
      else set({ receiver: { ...base.receiver, message: 'Chưa kết nối máy thu. Đang dùng GPS của điện thoại.' } })
    },
    disconnect: () => disconnect(true),
    setSettings(patch: Partial<Omit<PositionSettings, 'source'>>) {
      const settings = { ...base.settings, ...patch }
      deps.save(settings)
      set({ settings })
    },
    /** The user takes the present solution as the new normal: a drop below it turns red again. */
    acceptQuality() {
      set({ bestRank: base.quality ? QUALITY_RANK[base.quality] : 0 })
    },
  }
}
export type PositionSource = ReturnType<typeof createPositionSource>

let shared: PositionSource | null = null
/** The app's one position source, made on first use with the browser's geolocation and serial port. */
export function positionSource(): PositionSource {
  if (shared) return shared
  const nav = globalThis.navigator as (Navigator & { serial?: SerialLike }) | undefined
  shared = createPositionSource({
    geolocation: nav && 'geolocation' in nav ? nav.geolocation : null,
    serial: nav?.serial ?? null,
    now: () => Date.now(),
    secureContext: typeof window === 'undefined' || window.isSecureContext,
    load: loadSettings,
    save: saveSettings,
    receiverModule: async () => {
      const [serial, nmea] = await Promise.all([import('./receiver/serial.ts'), import('./receiver/nmea.ts')])
      return { openReceiver: serial.openReceiver, createReceiverTracker: nmea.createReceiverTracker }
    },
  })
  void shared.reconnect()
  return shared
}
