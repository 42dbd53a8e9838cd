/**
 * The part of the Web Serial API the app uses (Chrome and Edge on desktop and Android; not Safari or
 * Firefox), typed here as TypeScript's DOM library has no Web Serial yet.
 */
export type SerialPortLike = {
  open(options: { baudRate: number }): Promise<void>
  close(): Promise<void>
  readonly readable: ReadableStream<Uint8Array> | null
  getInfo?(): { usbVendorId?: number; usbProductId?: number; bluetoothServiceClassId?: number | string }
}

export type SerialLike = {
  requestPort(options?: { filters?: unknown[]; allowedBluetoothServiceClassIds?: string[] }): Promise<SerialPortLike>
  getPorts(): Promise<SerialPortLike[]>
  addEventListener(type: 'disconnect', listener: (e: Event) => void): void
  removeEventListener(type: 'disconnect', listener: (e: Event) => void): void
}

/** navigator.serial where the browser has it, else null. */
export function webSerial(): SerialLike | null {
  const nav = globalThis.navigator as (Navigator & { serial?: SerialLike }) | undefined
  return nav?.serial ?? null
}

/** Bluetooth Serial Port Profile: what Bluetooth GNSS receivers speak (Chrome 117+ lists such ports). */
export const BLUETOOTH_SPP = '00001101-0000-1000-8000-00805f9b34fb'
