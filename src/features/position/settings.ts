import { storageKeys } from '../../lib/storage-keys.ts'

export type SourceKind = 'phone' | 'receiver'

/** What the user chose in the GPS panel, remembered on the device. */
export type PositionSettings = {
  source: SourceKind
  /** The receiver's baud rate found or chosen last time; null to detect it. */
  baud: number | null
  /** Antenna height above the ground point (pole height), metres, subtracted from the receiver's altitude. */
  antennaHeightM: number
  /** "Độ chính xác tối thiểu": captures are refused when the accuracy is worse than this (metres). */
  gateM: number
}

/** The gate's choices; 25 m is what a phone in the open can promise, and what the walk always allowed. */
export const GATE_CHOICES_M = [0.02, 0.05, 0.1, 0.5, 1, 5, 25] as const
export const BAUD_RATES = [115200, 38400, 9600, 57600, 19200, 4800, 230400, 460800] as const
export const MAX_ANTENNA_HEIGHT_M = 10

export const DEFAULT_SETTINGS: PositionSettings = { source: 'phone', baud: null, antennaHeightM: 0, gateM: 25 }

/** Settings read back from storage, each field checked; anything odd falls back to its default. */
export function parseSettings(raw: string | null): PositionSettings {
  let v: Record<string, unknown> = {}
  try {
    const parsed: unknown = raw ? JSON.parse(raw) : {}
    if (parsed && typeof parsed === 'object') v = parsed as Record<string, unknown>
  } catch {}
  const num = (x: unknown) => (typeof x === 'number' && Number.isFinite(x) ? x : null)
  const baud = num(v.baud)
  const height = num(v.antennaHeightM)
  const gate = num(v.gateM)
  return {
    source: v.source === 'receiver' ? 'receiver' : 'phone',
    baud: baud !== null && (BAUD_RATES as readonly number[]).includes(baud) ? baud : null,
    antennaHeightM: height !== null && height >= 0 && height <= MAX_ANTENNA_HEIGHT_M ? height : 0,
    gateM: gate !== null && (GATE_CHOICES_M as readonly number[]).includes(gate) ? gate : DEFAULT_SETTINGS.gateM,
  }
}

export function loadSettings(): PositionSettings {
  try {
    return parseSettings(localStorage.getItem(storageKeys.position))
  } catch {
    return DEFAULT_SETTINGS
  }
}

export function saveSettings(s: PositionSettings): void {
  try {
    localStorage.setItem(storageKeys.position, JSON.stringify(s))
  } catch (err) {
    // Private mode or a full disk: the choice holds for this visit.
    console.warn('position settings not saved', err)
  }
}
