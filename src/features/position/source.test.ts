import { afterEach, describe, expect, it, vi } from 'vitest'
import { averageOf } from './average.ts'
import { formatPrecise, type Fix } from './fix.ts'
import { checkCapture } from './gate.ts'
import { phoneErrorMessage } from './phone.ts'
import { readoutLine } from './readout.ts'
import { createReceiverTracker } from './receiver/nmea.ts'
import { openReceiver } from './receiver/serial.ts'
import type { SerialLike, SerialPortLike } from './receiver/web-serial.ts'
import { DEFAULT_SETTINGS, parseSettings, type PositionSettings } from './settings.ts'
import { createPositionSource, RECEIVER_STALE_MS } from './source.ts'

function nmea(body: string): string {
  let sum = 0
  for (const ch of body) sum ^= ch.charCodeAt(0)
  return `$${body}*${sum.toString(16).toUpperCase().padStart(2, '0')}`
}
const gga = (t: string, q: number) => nmea(`GNGGA,${t},1047.7300,N,10642.0000,E,${q},18,0.6,8.2,M,-2.5,M,1.0,0001`)
const gst = (t: string, sigma: number) => nmea(`GNGST,${t},0.01,,,,${sigma},${sigma},0.03`)

/** A serial port that answers only at 115200 baud, with lines the test pushes; the others hear noise. */
function fakePort() {
  let push: ((s: string) => void) | null = null
  let end: (() => void) | null = null
  let readable: ReadableStream<Uint8Array> | null = null
  const port: SerialPortLike & { send(s: string): void; unplug(): void; opens: number[] } = {
    opens: [],
    get readable() {
      return readable
    },
    async open({ baudRate }) {
      port.opens.push(baudRate)
      readable = new ReadableStream<Uint8Array>({
        start(c) {
          const enc = new TextEncoder()
          push = (s) => c.enqueue(enc.encode(baudRate === 115200 ? s : s.replace(/[A-Z,*$]/g, '\u00ff')))
          end = () => c.close()
        },
      })
    },
    async close() {
      readable = null
    },
    send: (s) => push?.(s),
    unplug: () => end?.(),
  }
  return port
}

function source(opts: { serial?: SerialLike | null; settings?: Partial<PositionSettings> } = {}) {
  let now = 1_000_000
  const saved: PositionSettings[] = []
  const geo = { watchPosition: vi.fn(() => 1), clearWatch: vi.fn(), getCurrentPosition: vi.fn() }
  const s = createPositionSource({
    geolocation: geo as unknown as Geolocation,
    serial: opts.serial ?? null,
    now: () => now,
    secureContext: true,
    load: () => ({ ...DEFAULT_SETTINGS, ...opts.settings }),
    save: (x) => saved.push(x),
    receiverModule: async () => ({ openReceiver, createReceiverTracker }),
  })
  return { s, geo, saved, tick: (ms: number) => (now += ms) }
}

afterEach(() => vi.useRealTimers())

describe('lengths a surveyor reads', () => {
  it('says centimetres below a metre, never "0,02 m"', () => {
    expect(formatPrecise(0.02)).toBe('2 cm')
    expect(formatPrecise(0.374)).toBe('37 cm')
    expect(formatPrecise(0.003)).toBe('dưới 1 cm')
    expect(formatPrecise(1.2449)).toBe('1,24 m')
    expect(formatPrecise(8)).toBe('8 m')
    expect(formatPrecise(12.34)).toBe('12,3 m')
  })
})

describe('settings kept on the device', () => {
  it('reads back what was saved and refuses values outside the choices', () => {
    expect(
      parseSettings(JSON.stringify({ source: 'receiver', baud: 38400, antennaHeightM: 1.8, gateM: 0.05 })),
    ).toEqual({
      source: 'receiver',
      baud: 38400,
      antennaHeightM: 1.8,
      gateM: 0.05,
    })
    expect(parseSettings('{"source":"x","baud":1234,"antennaHeightM":-1,"gateM":0.07}')).toEqual(DEFAULT_SETTINGS)
    expect(parseSettings('not json')).toEqual(DEFAULT_SETTINGS)
  })

  it('explains a refused phone permission with where to allow it, and the https rule on plain http', () => {
    expect(phoneErrorMessage(1, true)).toMatch(/chặn quyền truy cập vị trí.*cho phép "Vị trí"/)
    expect(phoneErrorMessage(1, false)).toMatch(/https/)
  })
})

describe('averaged points', () => {
  it('takes the mean in the VN-2000 plane and keeps the spread of the samples', () => {
    const base: Fix = {
      lat: 10.8,
      lng: 106.7,
      accuracyM: 0.01,
      accuracySource: 'gst',
      quality: 'rtk-fixed',
      satellites: 20,
      hdop: 0.6,
      altitudeM: null,
      headingDeg: null,
      speedMps: null,
      at: 0,
    }
    // Four samples 1 cm north and south of the point, in metres of latitude.
    const dLat = 0.01 / 110_600
    const samples = [1, -1, 1, -1].map((k, i) => ({ ...base, lat: base.lat + k * dLat, at: i }))
    const p = averageOf(samples, 105.75)!
    expect(p.lat).toBeCloseTo(10.8, 9)
    expect(p.lng).toBeCloseTo(106.7, 8)
    expect(p.samples).toBe(4)
    expect(p.sigmaX).toBeCloseTo(Math.sqrt((4 * 0.0001) / 3), 4)
    // Grid convergence turns a north step a hair east: well under a millimetre here.
    expect(p.sigmaY).toBeLessThan(0.0001)
    expect(averageOf([])).toBeNull()
  })
})

describe('the position source with a receiver', () => {
  const connect = async (serial: SerialLike | null = null) => {
    const port = fakePort()
    const env = source({ serial })
    const release = env.s.acquire()
    const connected = env.s.openPort(port)
    // The port answers at 115200, the first rate tried when none was remembered.
    for (let i = 0; i < 200 && port.opens.at(-1) !== 115200; i++) await new Promise((r) => setTimeout(r, 5))
    port.send(`${gga('120000.00', 4)}\r\n${gst('120000.00', 0.008)}\r\n${gga('120001.00', 4)}\r\n`)
    expect(await connected).toBe(true)
    return { ...env, port, release }
  }

  it('finds the baud rate, remembers it, and reads RTK fixed with the accuracy from GST', async () => {
    const { s, port, saved, geo } = await connect()
    expect(port.opens).toEqual([115200])
    expect(saved.at(-1)).toMatchObject({ source: 'receiver', baud: 115200 })
    port.send(`${gga('120002.00', 4)}\r\n${gst('120002.00', 0.008)}\r\n`)
    await vi.waitFor(() => expect(s.getSnapshot().fix?.accuracySource).toBe('gst'))
    const p = s.getSnapshot()
    expect(p.active).toBe('receiver')
    expect(p.status).toBe('live')
    expect(p.fix!.quality).toBe('rtk-fixed')
    expect(readoutLine(p)).toMatch(/^Máy thu · RTK cố định · ± 1 cm · 18 vệ tinh/)
    // The phone is not watched while the receiver feeds the app.
    expect(geo.clearWatch).toHaveBeenCalled()
  })

  it('turns stale after 3 s without a sentence and refuses a capture', async () => {
    const { s, port, tick } = await connect()
    port.send(`${gga('120002.00', 4)}\r\n${gst('120002.00', 0.008)}\r\n`)
    await vi.waitFor(() => expect(s.getSnapshot().fix?.accuracySource).toBe('gst'))
    s.setSettings({ gateM: 0.05 })
    expect(checkCapture(s.getSnapshot()).ok).toBe(true)
    tick(RECEIVER_STALE_MS + 1)
    s.setSettings({})
    expect(s.getSnapshot().status).toBe('stale')
    expect(readoutLine(s.getSnapshot())).toMatch(/^MẤT TÍN HIỆU/)
    const c = checkCapture(s.getSnapshot())
    expect(c.ok || c.reason).toMatch(/Vị trí đã cũ/)
  })

  it('says at once when the solution drops from fixed to float, refuses captures until accepted or back', async () => {
    const { s, port } = await connect()
    port.send(`${gga('120002.00', 5)}\r\n`)
    await vi.waitFor(() => expect(s.getSnapshot().quality).toBe('rtk-float'))
    expect(s.getSnapshot().status).toBe('dropped')
    expect(checkCapture(s.getSnapshot()).ok).toBe(false)
    s.acceptQuality()
    expect(s.getSnapshot().status).toBe('live')
    // Float's HDOP-based accuracy (0.6 × 0.5 m) is still worse than a 5 cm gate.
    s.setSettings({ gateM: 0.05 })
    const c = checkCapture(s.getSnapshot())
    expect(c.ok || c.reason).toMatch(/Sai số ± 30 cm lớn hơn mức tối thiểu đã đặt \(5 cm\)/)
  })

  it('falls back to the phone, saying so, when the receiver goes away', async () => {
    const { s, port, geo } = await connect()
    const watchesBefore = geo.watchPosition.mock.calls.length
    port.unplug()
    await vi.waitFor(() => expect(s.getSnapshot().receiver.status).toBe('lost'))
    expect(s.getSnapshot().active).toBe('phone')
    expect(s.getSnapshot().receiver.message).toMatch(/Mất kết nối máy thu/)
    expect(geo.watchPosition.mock.calls.length).toBe(watchesBefore + 1)
  })
})

describe('the position source with the phone', () => {
  it('watches the phone only while a screen holds the position, and reads its fix in one line', () => {
    const { s, geo } = source()
    expect(s.getSnapshot().status).toBe('off')
    const release = s.acquire()
    expect(geo.watchPosition).toHaveBeenCalledTimes(1)
    const [onFix] = geo.watchPosition.mock.calls[0] as unknown as [(p: GeolocationPosition) => void]
    onFix({
      coords: { latitude: 10.8, longitude: 106.7, accuracy: 8, heading: null, speed: null, altitude: null },
      timestamp: 5,
    } as unknown as GeolocationPosition)
    expect(readoutLine(s.getSnapshot())).toBe('GPS điện thoại · ± 8 m · vừa xong')
    release()
    expect(geo.clearWatch).toHaveBeenCalledWith(1)
    expect(s.getSnapshot().status).toBe('off')
  })
})

describe('when an averaging run is done', () => {
  it('ends after N fixes, or after N seconds with at least one fix', async () => {
    const { averageDone } = await import('./average.ts')
    const f = { at: 0 } as Fix
    expect(averageDone({ kind: 'fixes', count: 2 }, [f], 0, 0)).toBe(false)
    expect(averageDone({ kind: 'fixes', count: 2 }, [f, f], 0, 0)).toBe(true)
    expect(averageDone({ kind: 'seconds', seconds: 10 }, [f], 0, 9_999)).toBe(false)
    expect(averageDone({ kind: 'seconds', seconds: 10 }, [f], 0, 10_000)).toBe(true)
    expect(averageDone({ kind: 'seconds', seconds: 10 }, [], 0, 60_000)).toBe(false)
  })
})

describe('a receiver chosen before', () => {
  it('is opened again without asking when the app starts, at the remembered baud rate', async () => {
    const port = fakePort()
    const serial = {
      requestPort: vi.fn(),
      getPorts: async () => [port],
      addEventListener() {},
      removeEventListener() {},
    } as unknown as SerialLike
    const { s } = source({ serial, settings: { source: 'receiver', baud: 115200 } })
    const opened = s.reconnect()
    for (let i = 0; i < 200 && port.opens.length === 0; i++) await new Promise((r) => setTimeout(r, 5))
    port.send(`${gga('120000.00', 4)}\r\n${gga('120001.00', 4)}\r\n`)
    await opened
    expect(serial.requestPort).not.toHaveBeenCalled()
    expect(port.opens).toEqual([115200])
    expect(s.getSnapshot().receiver.status).toBe('connected')
  })

  it('says the receiver is not connected when the browser no longer lists it, and keeps the phone', async () => {
    const serial = {
      getPorts: async () => [],
      addEventListener() {},
      removeEventListener() {},
    } as unknown as SerialLike
    const { s } = source({ serial, settings: { source: 'receiver' } })
    await s.reconnect()
    expect(s.getSnapshot().active).toBe('phone')
    expect(s.getSnapshot().receiver.message).toMatch(/Chưa kết nối máy thu/)
  })
})
