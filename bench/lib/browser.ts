import { chromium, type Browser, type BrowserContext, type CDPSession, type Page } from 'playwright-core'

export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium'
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

/** Lighthouse's "Slow 4G" (its mobile default): 150 ms RTT, 1.6 Mbit/s down, 750 kbit/s up, CPU 4× slower. */
export const SLOW_4G = {
  latency: 150,
  downloadThroughput: (1.6e6 / 8) * 0.9,
  uploadThroughput: (750e3 / 8) * 0.9,
  cpuSlowdown: 4,
}

export async function launch(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS })
}

/** A phone-sized context like Lighthouse's mobile emulation (Moto G Power: 412 × 823, DPR 1.75). */
export async function phoneContext(browser: Browser): Promise<BrowserContext> {
  return browser.newContext({
    viewport: { width: 412, height: 823 },
    deviceScaleFactor: 1.75,
    isMobile: true,
    hasTouch: true,
  })
}

export async function throttle(
  page: Page,
  net: { latency: number; downloadThroughput: number; uploadThroughput: number },
  cpuSlowdown = 1,
): Promise<CDPSession> {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Network.enable')
  await cdp.send('Network.emulateNetworkConditions', { offline: false, ...net })
  if (cpuSlowdown > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpuSlowdown })
  return cdp
}
