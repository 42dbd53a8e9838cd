import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { MapController } from '../engine/map-controller.ts'

// OpenLayers draws nothing in jsdom: the map itself is a stand-in; what is tested is where and when it is made.
vi.mock('../engine/map-controller.ts', () => ({
  createMapController: vi.fn(),
  initialLayerSettings: () => ({
    planning: true,
    parcels: true,
    planningOpacity: 0.6,
    basemap: 'vector',
    highContrast: false,
  }),
}))
vi.mock('../../../lib/tilejson.ts', () => ({ fetchTileSets: vi.fn(() => new Promise(() => {})) }))

/** A stand-in controller whose first tiles are drawn when the test says so. */
function fakeMap() {
  let drawn: (() => void) | undefined
  const ctrl = {
    layersAdded: Promise.resolve(),
    map: { once: (type: string, listener: () => void) => type === 'rendercomplete' && (drawn = listener) },
    setTarget: vi.fn(),
    destroy: vi.fn(),
  }
  return { ctrl: ctrl as unknown as MapController, drawTiles: () => drawn?.() }
}

const BOOT_SHELL = `<div id="root"><div class="boot"><header class="boot-header"></header><main class="boot-main">
  <div class="boot-map"><div class="boot-search"></div></div></main></div></div>`

async function load() {
  vi.resetModules()
  const engine = await import('../engine/map-controller.ts')
  const create = vi.mocked(engine.createMapController)
  create.mockReset()
  return { boot: await import('./boot-map.ts'), handoff: await import('./handoff.ts'), create }
}

beforeEach(() => {
  document.body.innerHTML = BOOT_SHELL
  location.hash = ''
})
afterEach(() => {
  vi.useRealTimers()
  document.body.innerHTML = ''
})

describe('the boot map index.html starts on /demo', () => {
  it('creates the map in the boot shell’s map area, under its search field, at the view in the hash, and offers it to the map view', async () => {
    const { boot, handoff, create } = await load()
    const fake = fakeMap()
    create.mockReturnValue(fake.ctrl)
    location.hash = '#/10.8/106.7/17'
    void boot.startBootMap()
    await vi.waitFor(() => expect(create).toHaveBeenCalledOnce())
    const frame = document.querySelector<HTMLElement>('.boot-map')!
    const [element, init] = create.mock.calls[0]!
    expect(element).toBe(frame.firstElementChild)
    expect(element.className).toBe('qh-map-canvas')
    expect(frame.classList.contains('qh-map')).toBe(true)
    expect(init.view).toEqual({ lat: 10.8, lng: 106.7, zoom: 17 })
    const viewElement = document.createElement('div')
    expect(handoff.adoptBootMap(viewElement, { lat: 10.8, lng: 106.7, zoom: 17 })).toBe(fake.ctrl)
  })

  it('opens fitted to the data when the hash holds no view', async () => {
    const { boot, handoff, create } = await load()
    create.mockReturnValue(fakeMap().ctrl)
    location.hash = '#/pin/nowhere'
    void boot.startBootMap()
    await vi.waitFor(() => expect(create).toHaveBeenCalledOnce())
    expect(create.mock.calls[0]![1].view).toBeUndefined()
    expect(handoff.hasBootMap()).toBe(true)
  })

  it('lets the app start once the first view’s tiles are drawn, after that frame, not inside it where it would hold back its paint', async () => {
    const { boot, create } = await load()
    const fake = fakeMap()
    create.mockReturnValue(fake.ctrl)
    let done = false
    void boot.startBootMap().then(() => (done = true))
    await vi.waitFor(() => expect(create).toHaveBeenCalledOnce())
    await new Promise((r) => setTimeout(r, 0))
    expect(done).toBe(false)
    fake.drawTiles()
    // Everything that runs before the frame's paint: the microtasks after the frame's callback.
    for (let i = 0; i < 20; i++) await Promise.resolve()
    expect(done).toBe(false)
    await new Promise((r) => setTimeout(r, 0))
    await new Promise((r) => setTimeout(r, 0))
    expect(done).toBe(true)
  })

  it('lets the app start anyway when the first tiles take longer than it waits', async () => {
    const { boot, create } = await load()
    create.mockReturnValue(fakeMap().ctrl)
    vi.useFakeTimers()
    const started = boot.startBootMap()
    await vi.advanceTimersByTimeAsync(boot.FIRST_TILES_WAIT_MS - 1)
    expect(create).toHaveBeenCalledOnce()
    let done = false
    void started.then(() => (done = true))
    await vi.advanceTimersByTimeAsync(0)
    expect(done).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(done).toBe(true)
  })

  it('leaves the page to the app when the boot shell is already gone', async () => {
    const { boot, handoff, create } = await load()
    document.body.innerHTML = '<div id="root"><div class="app-shell"></div></div>'
    await boot.startBootMap()
    expect(create).not.toHaveBeenCalled()
    expect(handoff.hasBootMap()).toBe(false)
  })

  it('fails without offering a map when the map cannot be created, so the app still starts and its map view makes its own', async () => {
    const { boot, handoff, create } = await load()
    create.mockImplementation(() => {
      throw new Error('no canvas')
    })
    await expect(boot.startBootMap()).rejects.toThrow('no canvas')
    expect(handoff.hasBootMap()).toBe(false)
    expect(handoff.adoptBootMap(document.createElement('div'), undefined)).toBeNull()
  })
})
