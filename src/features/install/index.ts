import { lazy } from 'react'
/** Installing the app: the early capture of the browser's prompt, and the lazily loaded offer. */
export { captureInstallPrompt, installEventAtom, isIosSafari } from './capture.ts'

/** Loaded only once the browser has offered installing, or on iPhone Safari. */
export const InstallPrompt = lazy(() => import('./InstallPrompt.tsx'))
