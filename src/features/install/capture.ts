import { atom } from 'jotai'
import { store } from '../../lib/store.ts'

/** Chromium's install event (not in TypeScript's DOM types). */
export type InstallPromptEvent = Event & {
  prompt(): Promise<void>
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>
}

/** The browser's deferred install prompt, once it has offered one; null after it was used or when installed. */
export const installEventAtom = atom<InstallPromptEvent | null>(null)

/**
 * Listens from the first moment for `beforeinstallprompt` (it fires early, often before React has
 * rendered) and keeps it, so the app can ask at a better moment than page load: after the user has
 * had something useful from it.
 */
export function captureInstallPrompt(): void {
  window.addEventListener('beforeinstallprompt', (e) => {
    e.preventDefault()
    store.set(installEventAtom, e as InstallPromptEvent)
  })
  window.addEventListener('appinstalled', () => store.set(installEventAtom, null))
}

/** True when the app already runs installed (standalone window, or iOS home screen). */
export function runsInstalled(): boolean {
  return (
    matchMedia('(display-mode: standalone)').matches ||
    (navigator as Navigator & { standalone?: boolean }).standalone === true
  )
}

/** iPhone and iPad Safari, which has no install event: the user adds the app through the Share menu. */
export function isIosSafari(ua: string = navigator.userAgent, touchPoints: number = navigator.maxTouchPoints): boolean {
  const ios = /iPhone|iPad|iPod/.test(ua) || (/Macintosh/.test(ua) && touchPoints > 1)
  return ios && /Safari\//.test(ua) && !/CriOS|FxiOS|EdgiOS|OPiOS/.test(ua)
}
