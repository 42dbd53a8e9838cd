import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { cleanup, render } from '@testing-library/react'
import { useRef } from 'react'
import type { MapController } from '../engine/map-controller.ts'
import type { LatLngZoom } from '../../../lib/map-url.ts'

// OpenLayers draws nothing in jsdom: maps are stand-ins; what is tested is which map the screen uses.
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

function fakeMap(view: LatLngZoom) {
  return { view: () => view, onView: vi.fn(() => () => {}), setTarget: vi.fn(), destroy: vi.fn() }
}
const asCtrl = (m: ReturnType<typeof fakeMap>) => m as unknown as MapController

const fitted: LatLngZoom = { lat: 10.797, lng: 106.7, zoom: 14.8 }
const street: LatLngZoom = { lat: 10.8, lng: 106.7, zoom: 17 }

async function load() {
  vi.resetModules()
  const engine = await import('../engine/map-controller.ts')
  const create = vi.mocked(engine.createMapController)
  create.mockReset()
  const { useMapController } = await import('./use-map-controller.ts')
  const handoff = await import('../boot/handoff.ts')
  const seen: { ctrl: MapController | null; view: LatLngZoom }[] = []
  function Screen({ start }: { start: LatLngZoom | undefined }) {
    const target = useRef<HTMLDivElement>(null)
    seen.push(useMapController(target, start))
    return <div ref={target} data-testid="map" />
  }
  return { create, handoff, Screen, seen, last: () => seen[seen.length - 1]! }
}

beforeEach(() => cleanup())
afterEach(() => cleanup())

describe('the map the map screen uses', () => {
  it('is the boot map when one was started for the same view: moved into the screen’s element, at the view it shows now, with no second map made', async () => {
    const { create, handoff, Screen, last } = await load()
    const boot = fakeMap(fitted)
    handoff.offerBootMap({ ctrl: asCtrl(boot), view: undefined })
    const { getByTestId } = render(<Screen start={undefined} />)
    expect(last().ctrl).toBe(boot)
    expect(boot.setTarget).toHaveBeenCalledWith(getByTestId('map'))
    expect(last().view).toEqual(fitted)
    expect(create).not.toHaveBeenCalled()
  })

  it('is made by the screen when no boot map was started (another page opened first, or the boot map could not be made)', async () => {
    const { create, Screen, last } = await load()
    const own = fakeMap(street)
    create.mockReturnValue(asCtrl(own))
    const { getByTestId } = render(<Screen start={street} />)
    expect(create).toHaveBeenCalledOnce()
    expect(create.mock.calls[0]![0]).toBe(getByTestId('map'))
    expect(create.mock.calls[0]![1].view).toEqual(street)
    expect(last().ctrl).toBe(own)
  })

  it('is made by the screen, the boot map destroyed, when the screen opens another view than the boot map was started for', async () => {
    const { create, handoff, Screen, last } = await load()
    const boot = fakeMap(fitted)
    handoff.offerBootMap({ ctrl: asCtrl(boot), view: undefined })
    const own = fakeMap(street)
    create.mockReturnValue(asCtrl(own))
    render(<Screen start={street} />)
    expect(boot.destroy).toHaveBeenCalledOnce()
    expect(last().ctrl).toBe(own)
  })

  it('is destroyed with the screen, the boot map it took over too', async () => {
    const { handoff, Screen } = await load()
    const boot = fakeMap(fitted)
    handoff.offerBootMap({ ctrl: asCtrl(boot), view: undefined })
    const { unmount } = render(<Screen start={undefined} />)
    unmount()
    expect(boot.destroy).toHaveBeenCalledOnce()
  })
})
