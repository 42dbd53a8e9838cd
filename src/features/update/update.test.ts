import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { storageKeys } from '../../lib/storage-keys.ts'
import { applyUpdateWhenSafe } from './apply-update.ts'
import { startBuildWatch } from './build-watch.ts'
import { chunkLoadFailed, installChunkReload, isChunkLoadError, reloadOnce } from './chunk-reload.ts'
import { hasUnsavedWork, setUnsavedWork } from './unsaved-work.ts'

const latest = (id: string) =>
  new Response(JSON.stringify({ id, timestamp: 1 }), { headers: { 'Content-Type': 'application/json' } })

beforeEach(() => sessionStorage.clear())
afterEach(() => vi.useRealTimers())

describe('new build check', () => {
  it('asks for /builds/latest.json with a timestamp at start and every 5 minutes while visible', async () => {
    vi.useFakeTimers({ now: 1000 })
    const fetchMock = vi.fn<typeof fetch>().mockImplementation(async () => latest('same'))
    const stop = startBuildWatch({ currentId: 'same', onNewBuild: () => {}, fetch: fetchMock })
    await vi.advanceTimersByTimeAsync(5 * 60_000)
    expect(fetchMock).toHaveBeenCalledTimes(2)
    expect(String(fetchMock.mock.calls[0]![0])).toBe('/builds/latest.json?1000')
    stop()
  })

  it('skips the poll while the page is hidden and checks at once when it becomes visible or online', async () => {
    vi.useFakeTimers()
    let visibility: DocumentVisibilityState = 'hidden'
    vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => visibility)
    const fetchMock = vi.fn<typeof fetch>().mockImplementation(async () => latest('same'))
    const stop = startBuildWatch({ currentId: 'same', onNewBuild: () => {}, fetch: fetchMock })
    await vi.advanceTimersByTimeAsync(10 * 60_000)
    expect(fetchMock).not.toHaveBeenCalled()
    visibility = 'visible'
    document.dispatchEvent(new Event('visibilitychange'))
    await vi.advanceTimersByTimeAsync(0)
    window.dispatchEvent(new Event('online'))
    await vi.advanceTimersByTimeAsync(0)
    expect(fetchMock).toHaveBeenCalledTimes(2)
    stop()
  })

  it('reports a different build id once', async () => {
    const onNewBuild = vi.fn()
    const fetchMock = vi.fn<typeof fetch>().mockImplementation(async () => latest('new'))
    const stop = startBuildWatch({ currentId: 'old', onNewBuild, fetch: fetchMock })
    await vi.waitFor(() => expect(onNewBuild).toHaveBeenCalledWith('new'))
    window.dispatchEvent(new Event('online'))
    await new Promise((r) => setTimeout(r, 0))
    expect(onNewBuild).toHaveBeenCalledTimes(1)
    stop()
  })

  it('only logs a failed manifest fetch', async () => {
    const info = vi.spyOn(console, 'info').mockImplementation(() => {})
    const onNewBuild = vi.fn()
    const fetchMock = vi.fn<typeof fetch>().mockRejectedValue(new TypeError('Failed to fetch'))
    const stop = startBuildWatch({ currentId: 'old', onNewBuild, fetch: fetchMock })
    await vi.waitFor(() => expect(info).toHaveBeenCalled())
    expect(onNewBuild).not.toHaveBeenCalled()
    stop()
  })
})

describe('switching to the new build', () => {
  it('activates at once when nothing is typed or running', () => {
    const activate = vi.fn()
    applyUpdateWhenSafe({ hasUnsavedWork: () => false, isBusy: () => false, activate, showPrompt: () => {} })
    expect(activate).toHaveBeenCalledOnce()
  })

  it('waits for the running requests to finish before reloading', () => {
    vi.useFakeTimers()
    let busy = true
    const activate = vi.fn()
    applyUpdateWhenSafe({ hasUnsavedWork: () => false, isBusy: () => busy, activate, showPrompt: () => {} })
    vi.advanceTimersByTime(5000)
    expect(activate).not.toHaveBeenCalled()
    busy = false
    vi.advanceTimersByTime(1000)
    expect(activate).toHaveBeenCalledOnce()
  })

  it('never reloads under a dirty form: it shows the "new version" prompt instead', () => {
    const activate = vi.fn()
    const showPrompt = vi.fn()
    setUnsavedWork('form-1', true)
    applyUpdateWhenSafe({ hasUnsavedWork, isBusy: () => false, activate, showPrompt })
    setUnsavedWork('form-1', false)
    expect(activate).not.toHaveBeenCalled()
    expect(showPrompt).toHaveBeenCalledOnce()
    expect(hasUnsavedWork()).toBe(false)
  })
})

describe('chunk-load failure', () => {
  it('recognises the browsers\u2019 failed dynamic import messages', () => {
    expect(isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: http://x/assets/a.js'))).toBe(
      true,
    )
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true)
    expect(isChunkLoadError(new Error('Cannot read properties of undefined'))).toBe(false)
  })

  it('reloads once, and not again for the same path within 10 s', () => {
    let now = 50_000
    const reload = vi.fn()
    expect(reloadOnce('/demo', { now: () => now, reload })).toBe(true)
    now += 9_999
    expect(reloadOnce('/demo', { now: () => now, reload })).toBe(false)
    expect(reloadOnce('/valuation', { now: () => now, reload })).toBe(true)
    expect(reload).toHaveBeenCalledTimes(2)
    expect(sessionStorage.getItem(storageKeys.chunkReloadPrefix + '/demo')).toBe('50000')
  })

  it('reloads again for the same path once the 10 s marker has expired', () => {
    let now = 50_000
    const reload = vi.fn()
    reloadOnce('/demo', { now: () => now, reload })
    now += 10_000
    expect(reloadOnce('/demo', { now: () => now, reload })).toBe(true)
    expect(reload).toHaveBeenCalledTimes(2)
  })

  it('takes over vite:preloadError and reloads only once when the chunk keeps failing', () => {
    const reload = vi.fn()
    const stop = installChunkReload(window, reload)
    const events = [1, 2].map(() => new Event('vite:preloadError', { cancelable: true }))
    for (const event of events) window.dispatchEvent(event)
    expect(events.every((e) => e.defaultPrevented)).toBe(true)
    expect(reload).toHaveBeenCalledOnce()
    expect(chunkLoadFailed()).toBe(true)
    stop()
  })
})
