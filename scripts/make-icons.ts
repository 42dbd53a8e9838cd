/**
 * Makes the app icons from public/icon.svg (192, 512, maskable 512 with a safe zone, Apple touch 180)
 * and, given a running server's URL, the install-dialog screenshots of its /demo page:
 *   node scripts/make-icons.ts [--screenshots http://localhost:3100]
 */
import { mkdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import sharp from 'sharp'

const root = resolve(import.meta.dirname, '..')
const svg = readFileSync(join(root, 'public/icon.svg'))
const out = join(root, 'public/icons')
mkdirSync(out, { recursive: true })

async function icon(size: number, file: string) {
  await sharp(svg, { density: 300 }).resize(size, size).png({ compressionLevel: 9 }).toFile(join(out, file))
}

/** Maskable icons are cropped to a circle of 80 % by some launchers: the motif sits inside it. */
async function maskable(size: number, file: string) {
  const inner = Math.round(size * 0.72)
  const motif = await sharp(svg, { density: 300 }).resize(inner, inner).png().toBuffer()
  await sharp({ create: { width: size, height: size, channels: 4, background: '#0284c7' } })
    .composite([{ input: motif, gravity: 'center' }])
    .png({ compressionLevel: 9 })
    .toFile(join(out, file))
}

await icon(192, 'icon-192.png')
await icon(512, 'icon-512.png')
await icon(180, 'apple-touch-icon.png')
await maskable(512, 'icon-maskable-512.png')
process.stdout.write('icons written to public/icons/\n')

const at = process.argv.indexOf('--screenshots')
if (at > 0) {
  const url = process.argv[at + 1]
  if (!url) throw new Error('--screenshots needs the URL of a running server')
  const { chromium } = await import('playwright-core')
  const dir = join(root, 'public/screenshots')
  mkdirSync(dir, { recursive: true })
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  })
  const shots = [
    { file: 'phone.png', viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true },
    { file: 'desktop.png', viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1, isMobile: false },
  ]
  for (const s of shots) {
    const context = await browser.newContext({
      viewport: s.viewport,
      deviceScaleFactor: s.deviceScaleFactor,
      isMobile: s.isMobile,
      locale: 'vi-VN',
    })
    const page = await context.newPage()
    await page.goto(`${url}/demo`, { waitUntil: 'networkidle' })
    await page.waitForTimeout(1500)
    const png = await page.screenshot()
    await sharp(png).png({ compressionLevel: 9, palette: true }).toFile(join(dir, s.file))
    await context.close()
  }
  await browser.close()
  process.stdout.write('screenshots written to public/screenshots/\n')
}
