import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import Feature from 'ol/Feature'
import OlMap from 'ol/Map'
import View from 'ol/View'
import type VectorLayer from 'ol/layer/Vector'
import type VectorTileLayer from 'ol/layer/VectorTile'
import type Style from 'ol/style/Style'
import type { StyleFunction } from 'ol/style/Style'
import type VectorTileSource from 'ol/source/VectorTile'
import { fromLonLat, get as getProjection, transformExtent } from 'ol/proj'
import { createXYZ } from 'ol/tilegrid'
import type { TileJson } from '#core/contract/tiles.ts'
import { createNationalLayer } from './base-map.ts'
import { createTileLayers, tileMeetsData, TILE_BUFFER, type TileSets } from './tile-layers.ts'

beforeAll(() => {
  // jsdom draws nothing: a browser without a 2D canvas (the planning hatch falls back to a flat colour).
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null)
  // OpenLayers watches its element's size; jsdom has no ResizeObserver and nothing here is drawn.
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  )
})
afterAll(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

/** The demo ward's bounds, as its TileJSON gives them. */
const WARD: [number, number, number, number] = [106.6903628, 10.7903915, 106.7088973, 10.804332]
/** Việt Nam, as the basemap's bounds once it draws the national boundaries. */
const COUNTRY: [number, number, number, number] = [102.14, 7.18, 117.83, 23.39]

const tileJson = (id: string, bounds = WARD): TileJson => ({
  tilejson: '3.0.0',
  name: id,
  description: '',
  attribution: '',
  scheme: 'xyz',
  tiles: [`https://qh.example/tiles/${id}/{z}/{x}/{y}.pbf`],
  minzoom: 10,
  maxzoom: 18,
  bounds,
  center: [106.7, 10.797, 15],
  vector_layers: [],
  data_date: null,
})

/** A map with no element: nothing is drawn, the layers and their sources are what is looked at. */
function mapAt(lng: number, lat: number, zoom: number) {
  const map = new OlMap({ view: new View({ center: fromLonLat([lng, lat]), zoom }) })
  map.setSize([390, 788])
  const national = createNationalLayer()
  const tiles = createTileLayers(map, national, {
    planning: true,
    parcels: true,
    planningOpacity: 0.6,
    basemap: 'vector',
    highContrast: false,
  })
  const update = () => tiles.updateNational(map.getView().calculateExtent(map.getSize()), map.getView().getZoom()!)
  return { map, national, tiles, update }
}

const layer = (map: OlMap, name: string) =>
  map.getAllLayers().find((l) => l.get('name') === name) as VectorLayer | undefined

describe('which tiles can hold data', () => {
  const grid = createXYZ({ tileSize: 256 })
  const data = transformExtent(WARD, 'EPSG:4326', 'EPSG:3857')

  it('takes a tile over the data, and one beside it that only the server’s buffer reaches into', () => {
    const inside = grid.getTileCoordExtent([14, 13047, 7697])
    expect(tileMeetsData(inside, data)).toBe(true)
    // A tile ending just short of the data, closer than its buffer: the server may put the data's edge in it.
    const w = inside[2]! - inside[0]!
    const beside = [data[2]! + w * TILE_BUFFER * 0.5, inside[1]!, data[2]! + w * (1 + TILE_BUFFER * 0.5), inside[3]!]
    expect(tileMeetsData(beside, data)).toBe(true)
  })

  it('leaves out a tile further from the data than the buffer', () => {
    expect(tileMeetsData(grid.getTileCoordExtent([14, 13047, 7696]), data)).toBe(false)
    expect(tileMeetsData(grid.getTileCoordExtent([14, 13100, 7697]), data)).toBe(false)
  })
})

describe('the tile layers', () => {
  const sets: TileSets = { basemap: tileJson('basemap'), planning: tileJson('planning'), parcels: tileJson('parcels') }
  const urlOf = (map: OlMap, name: string, z: number, x: number, y: number) => {
    const source = layer(map, name)!.getSource() as unknown as VectorTileSource
    return source.getTileUrlFunction()([z, x, y], 1, getProjection('EPSG:3857')!)
  }

  it('ask for the tiles over the data and for none beyond it', () => {
    const { map, tiles } = mapAt(106.7, 10.797, 14.8)
    tiles.add(sets)
    expect(urlOf(map, 'basemap', 14, 13047, 7697)).toBe('https://qh.example/tiles/basemap/14/13047/7697.pbf')
    expect(urlOf(map, 'planning', 14, 13048, 7697)).toBe('https://qh.example/tiles/planning/14/13048/7697.pbf')
    expect(urlOf(map, 'basemap', 14, 13047, 7696)).toBeUndefined()
    expect(urlOf(map, 'parcels', 17, 104000, 61581)).toBeUndefined()
  })

  it('start fetching the tiles of the first view at once, those over the data only, of the layers drawn at its zoom', () => {
    document.head.innerHTML = ''
    const { map, tiles } = mapAt(106.6996, 10.7974, 14.8)
    tiles.add(sets)
    tiles.preloadFirstTiles()
    const preloads = [...document.head.querySelectorAll<HTMLLinkElement>('link[rel=preload]')]
    expect(preloads.every((l) => l.as === 'fetch' && l.crossOrigin === 'anonymous')).toBe(true)
    const urls = preloads.map((l) => l.getAttribute('href')!.replace('https://qh.example/tiles/', '')).sort()
    // The z14 tiles over the ward (the rows north of it hold none of it), basemap and planning; parcels start at z16.
    const over = ['13047/7697', '13047/7698', '13048/7697', '13048/7698']
    expect(urls).toEqual([...over.map((t) => `basemap/14/${t}.pbf`), ...over.map((t) => `planning/14/${t}.pbf`)])
    expect(layer(map, 'parcels')!.getVisible()).toBe(true)
  })

  it('draw the basemap’s names as text alone, without a blank tile image per tile beside them', () => {
    const { map, tiles } = mapAt(106.7, 10.797, 14.8)
    tiles.add(sets)
    const mode = (name: string) => (layer(map, name) as unknown as VectorTileLayer).getRenderMode()
    expect(mode('basemap-labels')).toBe('vector')
    // The shapes stay pre-drawn into tile images, which panning and zooming reuse.
    expect(mode('basemap')).toBe('hybrid')
    expect(mode('planning')).toBe('hybrid')
    expect(mode('parcels')).toBe('hybrid')
  })

  it('box where the parcels and plans are at small zooms, not the country the national boundaries span', () => {
    const { map, tiles } = mapAt(106.7, 10.797, 8)
    tiles.add({ ...sets, basemap: tileJson('basemap', COUNTRY) })
    const box = layer(map, 'coverage')!.getSource()!.getFeatures()[0]!.getGeometry()!.getExtent()
    expect(transformExtent(box, 'EPSG:3857', 'EPSG:4326').map((v) => Math.round(v * 1e4) / 1e4)).toEqual(
      WARD.map((v) => Math.round(v * 1e4) / 1e4),
    )
  })

  it('ask for every tile when a set covers the world (no data imported yet)', () => {
    const { map, tiles } = mapAt(106.7, 10.797, 14.8)
    tiles.add({ basemap: tileJson('basemap', [-180, -85.0511, 180, 85.0511]) })
    expect(urlOf(map, 'basemap', 14, 100, 100)).toBe('https://qh.example/tiles/basemap/14/100/100.pbf')
  })
})

describe('the national outline', () => {
  it('waits for the TileJSONs at street zooms, then stays hidden over the data', () => {
    const { national, tiles, update } = mapAt(106.7, 10.797, 15)
    expect(national.getVisible()).toBe(false)
    update()
    expect(national.getVisible()).toBe(false)
    tiles.add({ basemap: tileJson('basemap') })
    update()
    expect(national.getVisible()).toBe(false)
  })

  it('shows at street zooms once the TileJSONs say the view holds no data, or could not be read', () => {
    const hanoi = mapAt(105.85, 21.03, 15)
    hanoi.tiles.add({ basemap: tileJson('basemap') })
    hanoi.update()
    expect(hanoi.national.getVisible()).toBe(true)
    const unread = mapAt(106.7, 10.797, 15)
    unread.tiles.add({})
    unread.update()
    expect(unread.national.getVisible()).toBe(true)
  })

  it('lies under the national boundaries wherever the basemap has no data of its own, though its tiles span the country', () => {
    const basemap: TileJson = {
      ...tileJson('basemap', COUNTRY),
      boundaries: { name: 'Ranh giới hành chính 2025', source: 'x', data_date: '2025-07-01' },
      data_bounds: WARD,
    }
    const hanoi = mapAt(105.85, 21.03, 15)
    hanoi.tiles.add({ basemap })
    hanoi.update()
    expect(hanoi.national.getVisible()).toBe(true)
    const demo = mapAt(106.7, 10.797, 15)
    demo.tiles.add({ basemap })
    demo.update()
    expect(demo.national.getVisible()).toBe(false)
  })

  it('shows at once up to z10, before the TileJSONs are read, in its own colours', () => {
    const { national } = mapAt(106.5, 16.2, 6)
    expect(national.getVisible()).toBe(true)
    const land = (national.getStyle() as StyleFunction)(
      new Feature({ kind: 'mainland', name: 'Việt Nam' }),
      2000,
    ) as Style
    expect(land.getFill()?.getColor()).toBe('#f4efe4')
  })
})
