import { describe, expect, it } from 'vitest'
import { loadGdal } from './gdal.ts'

describe('GDAL as WebAssembly', () => {
  it('loads once and offers the vector and raster drivers the importers rely on', async () => {
    const gdal = await loadGdal()
    expect(await loadGdal()).toBe(gdal)
    for (const name of [
      'DGN',
      'MapInfo File',
      'GPKG',
      'DXF',
      'KML',
      'ESRI Shapefile',
      'GeoJSON',
      'CSV',
      'XLSX',
      'OSM',
      'FlatGeobuf',
    ]) {
      expect(Object.keys(gdal.drivers.vector), name).toContain(name)
    }
    for (const name of ['GTiff', 'COG', 'PNG', 'JPEG', 'WEBP', 'PDF', 'VRT'])
      expect(Object.keys(gdal.drivers.raster), name).toContain(name)
  })
})
