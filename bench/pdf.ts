/**
 * Time and peak memory of reading a large geospatial PDF: the importer's reader (`readGeospatialPdf`:
 * pdf-lib with the image data left in the file, the image decoded to disk), and, for comparison,
 * pdf-lib given the whole file as it is. Each read runs in a process of its own, so its peak RSS
 * (getrusage `maxrss`) is its own. Makes its sheets with the `gdal_translate` command (gdal-bin):
 *
 *   node bench/pdf.ts [side in px …, 10000 by default]
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, openSync, readFileSync, rmSync, statSync, writeSync, closeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { vn2000Proj } from '#core/geo/vn2000.ts'

const [mode, file] = process.argv.slice(2)

if (mode === 'reader' || mode === 'whole') {
  const t0 = performance.now()
  if (mode === 'reader') {
    const { readGeospatialPdf } = await import('../server/src/overlays/geospatial-pdf.ts')
    const stem = join(mkdtempSync(join(tmpdir(), 'qh-bench-pdf-')), 'image')
    const sheet = await readGeospatialPdf(file!, stem, () => {})
    rmSync(sheet.image)
  } else {
    const { PDFDocument } = await import('pdf-lib')
    const doc = await PDFDocument.load(readFileSync(file!), { updateMetadata: false })
    doc.getPage(0)
  }
  const ms = performance.now() - t0
  console.log(JSON.stringify({ s: ms / 1000, rssMB: process.resourceUsage().maxRSS / 1024 }))
} else {
  const sides = process.argv.slice(2).map(Number)
  const dir = mkdtempSync(join(tmpdir(), 'qh-bench-pdf-'))
  const rows: string[] = []
  for (const side of sides.length ? sides : [10000]) {
    // Noise (the red channel over bands) that deflate cannot shrink much: a worst case for the file's size.
    const ppm = join(dir, 'sheet.ppm')
    const fd = openSync(ppm, 'w')
    writeSync(fd, `P6\n${side} ${side}\n255\n`)
    for (let y = 0; y < side; y++) {
      const row = randomBytes(side * 3)
      for (let i = 0; i < row.length; i += 3) row[i] = (row[i]! & 0x3f) + ((y >> 5) & 0x7f)
      writeSync(fd, row)
    }
    closeSync(fd)
    for (const compress of ['DEFLATE', 'JPEG']) {
      const pdf = join(dir, `sheet-${compress}.pdf`)
      const ullr = ['548000', '1775000', String(548000 + side / 2), String(1775000 - side / 2)]
      const options = ['-q', '-of', 'PDF', '-co', `COMPRESS=${compress}`, '-co', 'GEO_ENCODING=ISO32000']
      execFileSync('gdal_translate', [...options, '-a_srs', vn2000Proj(107.75), '-a_ullr', ...ullr, ppm, pdf])
      const mb = statSync(pdf).size / 1e6
      for (const m of ['reader', 'whole']) {
        const out = spawnSync(process.execPath, [import.meta.filename, m, pdf], { encoding: 'utf8' })
        const r = out.status === 0 ? (JSON.parse(out.stdout) as { s: number; rssMB: number }) : undefined
        rows.push(
          `| ${side} × ${side} ${compress} | ${mb.toFixed(0)} | ${m === 'reader' ? 'importer (readGeospatialPdf)' : 'pdf-lib, whole file'} | ` +
            (r ? `${r.s.toFixed(1)} | ${r.rssMB.toFixed(0)} |` : `failed: ${out.stderr.trim().split('\n').at(-1)} | |`),
        )
      }
      rmSync(pdf)
    }
  }
  rmSync(dir, { recursive: true })
  console.log(`| image | file MB | read by | seconds | peak RSS MB |\n|---|---|---|---|---|\n${rows.join('\n')}`)
}
