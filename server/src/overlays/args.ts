import { parseArgs } from 'node:util'
import { parsePlanLevel } from '#core/planning/plan-levels.ts'
import { UsageError } from '../import/args.ts'
import { isoDate } from '../import/values.ts'
import { parseGcp, parseOverlayCrs } from './georef.ts'
import { overlayIdPattern, type OverlayImportOptions } from './import-overlay.ts'

export const overlayUsage =
  'Cách dùng / Usage: npm run import -- <ảnh/scan> --kind overlay --name "…" --plan-level QHPK|QHCT|QHC ' +
  '--decision-no "…" --approved-at YYYY-MM-DD [--crs vn2000:<kinh tuyến trục>|EPSG:…] [--gcp cột,dòng,X,Y …] [--id …] [--source "…"]'

/** The `--kind overlay` command line; every mistake is a UsageError naming the option. */
export function parseOverlayArgs(argv: string[]): OverlayImportOptions | { help: true } {
  let parsed
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        kind: { type: 'string' },
        name: { type: 'string' },
        'plan-level': { type: 'string' },
        'decision-no': { type: 'string' },
        'approved-at': { type: 'string' },
        crs: { type: 'string' },
        gcp: { type: 'string', multiple: true },
        id: { type: 'string' },
        source: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    })
  } catch (err) {
    throw new UsageError(
      `tùy chọn không hợp lệ / bad option: ${(err as Error).message.replace(/\s*To specify.*$/s, '')}`,
    )
  }
  const { values: v, positionals } = parsed
  if (v.help) return { help: true }
  if (positionals.length !== 1)
    throw new UsageError(
      positionals.length === 0 ? 'thiếu tệp ảnh / missing the scan' : `chỉ nhập một tệp mỗi lần / one file at a time`,
    )
  if (!v.name?.trim()) throw new UsageError('thiếu --name / missing --name')
  const level = parsePlanLevel(v['plan-level'] ?? '')
  if (!level)
    throw new UsageError(
      `--plan-level phải là QHPK, QHCT hoặc QHC / must be QHPK, QHCT or QHC: ${JSON.stringify(v['plan-level'] ?? '')}`,
    )
  if (!v['decision-no']?.trim()) throw new UsageError('thiếu --decision-no / missing --decision-no')
  if (!v['approved-at'] || !isoDate(v['approved-at']))
    throw new UsageError(
      `--approved-at cần ngày YYYY-MM-DD / needs a YYYY-MM-DD date: ${JSON.stringify(v['approved-at'] ?? '')}`,
    )
  const crs = v.crs === undefined ? undefined : parseOverlayCrs(v.crs)
  if (crs === null)
    throw new UsageError(
      `--crs không hợp lệ / invalid --crs: ${JSON.stringify(v.crs)} (EPSG:4326, vn2000:107.75, EPSG:3405 …)`,
    )
  const gcps = (v.gcp ?? []).map((g) => {
    const p = parseGcp(g)
    if (!p) throw new UsageError(`--gcp cần dạng cột,dòng,X,Y / --gcp needs pixel,line,X,Y: ${JSON.stringify(g)}`)
    return p
  })
  if (gcps.length > 0 && gcps.length < 3)
    throw new UsageError(`cần ít nhất 3 --gcp / at least 3 --gcp, có / got ${gcps.length}`)
  if (v.id !== undefined && !overlayIdPattern.test(v.id))
    throw new UsageError(`--id chỉ gồm chữ, số, . _ - / --id takes letters, digits, . _ -: ${JSON.stringify(v.id)}`)
  return {
    file: positionals[0]!,
    name: v.name,
    planLevel: level,
    decisionNo: v['decision-no'],
    approvedAt: v['approved-at'],
    crs,
    gcps,
    id: v.id,
    source: v.source,
  }
}
