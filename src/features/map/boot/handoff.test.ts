import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { MapController } from '../engine/map-controller.ts'

type Handoff = typeof import('./handoff.ts')

/** A stand-in for the boot map's controller: what the handoff calls on it. */
function fakeMap() {
  return { setTarget: vi.fn(), destroy: vi.fn() }
}
const asCtrl = (m: ReturnType<typeof fakeMap>) => m as unknown as MapController

const fitted = undefined
const street = { lat: 10.8, lng: 106.7, zoom: 17 }

// The handoff holds one page's boot map: each test starts from a fresh copy of the module.
let h: Handoff
beforeEach(async () => {
  vi.resetModules()
  vi.useRealTimers()
  h = await import('./handoff.ts')
})

describe('handing the boot map to the map view', () => {
  it('gives the first map view opening at the same view the boot map itself, moved into its element', () => {
    const boot = fakeMap()
    h.offerBootMap({ ctrl: asCtrl(boot), view: street })
    expect(h.hasBootMap()).toBe(true)
    const element = document.createElement('div')
    expect(h.adoptBootMap(element, { ...street })).toBe(boot)
    expect(boot.setTarget).toHaveBeenCalledWith(element)
    expect(boot.destroy).not.toHaveBeenCalled()
    expect(h.hasBootMap()).toBe(false)
  })

  it('destroys a boot map started for another view, so the map view makes its own', () => {
    const boot = fakeMap()
    h.offerBootMap({ ctrl: asCtrl(boot), view: fitted })
    expect(h.adoptBootMap(document.createElement('div'), street)).toBeNull()
    expect(boot.destroy).toHaveBeenCalledOnce()
  })

  it('gives nothing to a map view when there is no boot map, and destroys one offered after that view made its own', () => {
    expect(h.adoptBootMap(document.createElement('div'), fitted)).toBeNull()
    const late = fakeMap()
    h.offerBootMap({ ctrl: asCtrl(late), view: fitted })
    expect(late.destroy).toHaveBeenCalledOnce()
    expect(h.hasBootMap()).toBe(false)
  })

  it('gives the boot map to the first map view only', () => {
    const boot = fakeMap()
    h.offerBootMap({ ctrl: asCtrl(boot), view: fitted })
    expect(h.adoptBootMap(document.createElement('div'), fitted)).toBe(boot)
    expect(h.adoptBootMap(document.createElement('div'), fitted)).toBeNull()
  })
})

describe('showing the boot map in the map frame meanwhile', () => {
  it('moves the boot map into the frame', () => {
    const boot = fakeMap()
    h.offerBootMap({ ctrl: asCtrl(boot), view: fitted })
    const frame = document.createElement('div')
    h.showBootMap(frame)
    expect(boot.setTarget).toHaveBeenLastCalledWith(frame)
  })

  it('moves a boot map offered after the frame appeared into it at once', () => {
    const frame = document.createElement('div')
    h.showBootMap(frame)
    const boot = fakeMap()
    h.offerBootMap({ ctrl: asCtrl(boot), view: fitted })
    expect(boot.setTarget).toHaveBeenCalledWith(frame)
  })

  it('keeps the boot map when the map view takes it over in the same render as the frame goes', () => {
    vi.useFakeTimers()
    const boot = fakeMap()
    h.offerBootMap({ ctrl: asCtrl(boot), view: fitted })
    const release = h.showBootMap(document.createElement('div'))
    release()
    const view = document.createElement('div')
    expect(h.adoptBootMap(view, fitted)).toBe(boot)
    vi.runAllTimers()
    expect(boot.destroy).not.toHaveBeenCalled()
    expect(boot.setTarget).toHaveBeenLastCalledWith(view)
  })

  it('keeps the boot map from one frame to the next (the route’s frame, then the page’s)', () => {
    vi.useFakeTimers()
    const boot = fakeMap()
    h.offerBootMap({ ctrl: asCtrl(boot), view: fitted })
    const release = h.showBootMap(document.createElement('div'))
    release()
    const next = document.createElement('div')
    h.showBootMap(next)
    vi.runAllTimers()
    expect(boot.destroy).not.toHaveBeenCalled()
    expect(boot.setTarget).toHaveBeenLastCalledWith(next)
  })

  it('destroys the boot map when the frame goes and no map view takes it over (the user went to another page)', () => {
    vi.useFakeTimers()
    const boot = fakeMap()
    h.offerBootMap({ ctrl: asCtrl(boot), view: fitted })
    h.showBootMap(document.createElement('div'))()
    vi.runAllTimers()
    expect(boot.destroy).toHaveBeenCalledOnce()
    expect(h.hasBootMap()).toBe(false)
  })
})
