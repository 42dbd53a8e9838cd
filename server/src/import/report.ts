import type { ImportSummary } from './import-file.ts'
import type { ImportProgress } from './read-rows.ts'
import type { Rejection } from './types.ts'

const int = new Intl.NumberFormat('vi-VN', { maximumFractionDigits: 0 })
const one = new Intl.NumberFormat('vi-VN', { maximumFractionDigits: 1 })

export type ProgressSink = { write(s: string): unknown; isTTY?: boolean | undefined; columns?: number | undefined }

/**
 * The terminal progress bar: on a TTY one line redrawn in place with \r; elsewhere (CI logs, a
 * file) a plain line every few seconds, so logs stay readable.
 */
export function createProgressBar(out: ProgressSink, now: () => number = () => performance.now()) {
  const started = now()
  let last = Number.NEGATIVE_INFINITY
  let drawn = false
  const line = (p: ImportProgress) => {
    const fraction = p.total > 0 ? Math.min(1, p.done / p.total) : 0
    const secs = Math.max((now() - started) / 1000, 1e-3)
    const stats = `${one.format(fraction * 100)}% · đã đọc ${int.format(p.read)} · đã ghi ${int.format(p.inserted)} · loại ${int.format(p.rejected)} · ${int.format(p.read / secs)}/s`
    return { fraction, stats }
  }
  return {
    update(p: ImportProgress) {
      const t = now()
      if (out.isTTY) {
        if (t - last < 100) return
        last = t
        const { fraction, stats } = line(p)
        const width = Math.max(10, Math.min(40, (out.columns ?? 80) - stats.length - 4))
        const filled = Math.round(fraction * width)
        out.write(`\r[${'█'.repeat(filled)}${'░'.repeat(width - filled)}] ${stats}\x1b[K`)
        drawn = true
      } else {
        if (t - last < 5000) return
        last = t
        out.write(`Đang nhập: ${line(p).stats}\n`)
      }
    },
    /** Ends the redrawn line so what follows starts on a fresh one. */
    finish() {
      if (drawn) out.write('\n')
      drawn = false
    },
  }
}

export function formatRejections(rejections: Rejection[], unit: string, total: number, limit = 20): string[] {
  if (total === 0) return []
  const lines = [`Bị loại ${int.format(total)} ${unit}${total > limit ? ` (${limit} ${unit} đầu):` : ':'}`]
  for (const r of rejections.slice(0, limit))
    lines.push(`  ${r.sheet === undefined ? '' : `trang tính "${r.sheet}", `}${unit} ${r.n}: ${r.reason}`)
  return lines
}

const encodingNames = { 'utf-8': 'UTF-8', tcvn3: 'TCVN3 (ABC)', vni: 'VNI', 'windows-1258': 'Windows-1258' }
const encodingFrom = {
  option: 'theo --encoding',
  cpg: 'theo tệp .cpg',
  format: 'theo định dạng',
  detected: 'nhận ra từ nội dung tệp',
}

/** "hệ tọa độ vn2000:107.75 (theo SRS của GeoPackage)": what the rows were placed in, and why; nothing for a price table. */
export function crsLine(s: Pick<ImportSummary, 'crs' | 'crsFrom' | 'crsSource'>): string | null {
  const from = {
    option: 'theo --crs',
    file: `theo ${s.crsSource ?? 'tệp'}`,
    province: 'theo kinh tuyến trục của tỉnh (--province)',
    default: 'mặc định, tọa độ là kinh độ, vĩ độ',
    none: null,
  }[s.crsFrom]
  return from === null ? null : `hệ tọa độ ${s.crs} (${from})`
}

export function formatSummary(s: ImportSummary): string[] {
  const crs = crsLine(s)
  return [
    `${s.replaced ? 'Đã thay' : 'Đã nhập'} bộ dữ liệu "${s.datasetId}" (${s.kind})${crs ? `, ${crs}` : ''}.`,
    ...encodingLines(s.text),
    ...personalLines(s.personalColumns),
    ...s.warnings.map((w) => `Cảnh báo: ${w}`),
    `Đọc ${int.format(s.read)} ${s.unit}; ghi ${int.format(s.inserted)} dòng; sửa hình học ${int.format(s.repaired)}; loại ${int.format(s.rejected)}.`,
    `Thời gian ${one.format(s.seconds)} s, ${int.format(s.rowsPerSecond)} dòng/s. Phiên bản dữ liệu ${s.dataVersion} (bản đồ được làm mới).`,
    ...formatRejections(s.rejections, s.unit, s.rejected),
  ]
}

export function encodingLines(text: ImportSummary['text']): string[] {
  return text && text.encoding !== 'utf-8'
    ? [
        `Chữ tiếng Việt đọc theo bảng mã ${encodingNames[text.encoding]} (${encodingFrom[text.from]}), đã chuyển sang Unicode.`,
      ]
    : []
}

export function personalLines(columns: string[]): string[] {
  return columns.length > 0
    ? [
        `Đã bỏ ${columns.length === 1 ? 'cột' : 'các cột'} ${columns.join(', ')} (tên, giấy tờ của chủ sử dụng: dữ liệu cá nhân, không lưu, không hiển thị).`,
      ]
    : []
}
