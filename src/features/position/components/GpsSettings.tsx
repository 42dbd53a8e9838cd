import { useId, useState } from 'react'
import { Button } from '@mantine/core'
import { formatAccuracy, formatAge, formatPrecise, QUALITY_WORDS } from '../fix.ts'
import { BLUETOOTH_SPP, webSerial } from '../receiver/web-serial.ts'
import { BAUD_RATES, GATE_CHOICES_M, MAX_ANTENNA_HEIGHT_M } from '../settings.ts'
import { positionSource, type PositionSnapshot } from '../source.ts'
import { PositionStatus } from './PositionStatus.tsx'

const ACCURACY_FROM = { gst: 'theo GST của máy thu', hdop: 'ước từ HDOP', device: 'theo điện thoại' } as const

/** Every figure of the fix, for the panel: what the one-line status sums up. */
function FixFacts({ p }: { p: PositionSnapshot }) {
  const f = p.fix
  if (!f) return null
  return (
    <dl className="qh-pos-facts" data-testid="position-facts">
      <dt>Loại lời giải</dt>
      <dd data-testid="fix-quality">{QUALITY_WORDS[p.quality ?? f.quality]}</dd>
      <dt>Sai số ngang</dt>
      <dd data-testid="fix-accuracy">
        {formatAccuracy(f.accuracyM)} ({ACCURACY_FROM[f.accuracySource]})
      </dd>
      {f.satellites !== null && (
        <>
          <dt>Vệ tinh</dt>
          <dd>{f.satellites}</dd>
        </>
      )}
      {f.hdop !== null && (
        <>
          <dt>HDOP</dt>
          <dd>{f.hdop.toLocaleString('vi-VN')}</dd>
        </>
      )}
      {f.altitudeM !== null && (
        <>
          <dt>Độ cao mặt đất</dt>
          <dd>{f.altitudeM.toLocaleString('vi-VN', { maximumFractionDigits: 2 })} m</dd>
        </>
      )}
      <dt>Tuổi vị trí</dt>
      <dd>{p.lastAt === null ? '—' : formatAge(p.now - p.lastAt)}</dd>
    </dl>
  )
}

function ReceiverControls({ p }: { p: PositionSnapshot }) {
  const id = useId()
  const [busy, setBusy] = useState(false)
  const source = positionSource()
  const rx = p.receiver
  if (rx.status === 'unsupported')
    return (
      <p className="qh-pos-note" data-testid="serial-unsupported">
        Trình duyệt này không có Web Serial (iPhone, iPad, Firefox, Safari), nên không nối được máy thu GNSS. Ứng dụng
        vẫn dùng GPS của điện thoại. Để nối máy thu, hãy mở ứng dụng bằng Chrome hoặc Edge trên Android hay máy tính.
      </p>
    )
  const connect = async () => {
    const serial = webSerial()
    if (!serial) return
    setBusy(true)
    try {
      // Asked first, in the tap itself: the browser only shows its port picker for a user's gesture.
      const port = await serial.requestPort({ allowedBluetoothServiceClassIds: [BLUETOOTH_SPP] })
      await source.openPort(port)
    } catch (err) {
      // Closing the picker without a choice is not an error worth a message.
      if (!(err instanceof DOMException && err.name === 'NotFoundError')) console.warn('receiver not connected', err)
    } finally {
      setBusy(false)
    }
  }
  const connected = rx.status === 'connected'
  return (
    <div className="qh-pos-receiver">
      {rx.message && (
        <p className="qh-pos-note" role="alert" data-testid="receiver-message">
          {rx.message}
        </p>
      )}
      {connected ? (
        <p className="qh-pos-note" data-testid="receiver-connected">
          Đã kết nối máy thu · {rx.baud} baud · {rx.sentences} câu NMEA
          {rx.badChecksums > 0 ? `, ${rx.badChecksums} câu sai checksum (bỏ qua)` : ''}
        </p>
      ) : (
        <label className="qh-field" htmlFor={`${id}-baud`}>
          <span>Tốc độ cổng (baud)</span>
          <select
            id={`${id}-baud`}
            value={p.settings.baud ?? ''}
            onChange={(e) => source.setSettings({ baud: e.currentTarget.value ? Number(e.currentTarget.value) : null })}
          >
            <option value="">Tự dò</option>
            {BAUD_RATES.map((b) => (
              <option key={b} value={b}>
                {b}
              </option>
            ))}
          </select>
        </label>
      )}
      <div className="qh-pos-actions">
        {connected ? (
          <Button variant="default" onClick={() => void source.disconnect()}>
            Ngắt máy thu, dùng GPS điện thoại
          </Button>
        ) : (
          <Button loading={busy || rx.status === 'connecting'} onClick={() => void connect()}>
            Kết nối máy thu
          </Button>
        )}
      </div>
    </div>
  )
}

/**
 * The GPS panel: where the position comes from (the phone, or a GNSS receiver over Web Serial, with its
 * baud rate found or chosen), the antenna height, the accuracy gate, and every figure of the fix. Screens
 * that show the one-line status above it leave `withStatus` off.
 */
export function GpsSettings({ position: p, withStatus = false }: { position: PositionSnapshot; withStatus?: boolean }) {
  const id = useId()
  const source = positionSource()
  return (
    <div className="qh-pos-settings" data-testid="gps-settings">
      {withStatus && <PositionStatus position={p} />}
      {p.status === 'dropped' && (
        <Button size="compact-sm" variant="light" color="red" onClick={() => source.acceptQuality()}>
          Chấp nhận mức {p.quality ? QUALITY_WORDS[p.quality] : 'này'}
        </Button>
      )}
      <FixFacts p={p} />
      <ReceiverControls p={p} />
      <label className="qh-field" htmlFor={`${id}-h`}>
        <span>Chiều cao ăng-ten (m, trừ vào độ cao)</span>
        <input
          id={`${id}-h`}
          type="number"
          inputMode="decimal"
          min={0}
          max={MAX_ANTENNA_HEIGHT_M}
          step={0.001}
          defaultValue={p.settings.antennaHeightM}
          onChange={(e) => {
            const v = Number(e.currentTarget.value.replace(',', '.'))
            if (Number.isFinite(v) && v >= 0 && v <= MAX_ANTENNA_HEIGHT_M) source.setSettings({ antennaHeightM: v })
          }}
          data-testid="antenna-height"
        />
      </label>
      <label className="qh-field" htmlFor={`${id}-gate`}>
        <span>Độ chính xác tối thiểu khi ghi điểm</span>
        <select
          id={`${id}-gate`}
          value={p.settings.gateM}
          onChange={(e) => source.setSettings({ gateM: Number(e.currentTarget.value) })}
          data-testid="accuracy-gate"
        >
          {GATE_CHOICES_M.map((g) => (
            <option key={g} value={g}>
              {formatPrecise(g)}
            </option>
          ))}
        </select>
      </label>
    </div>
  )
}
