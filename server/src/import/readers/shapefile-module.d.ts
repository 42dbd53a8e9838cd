// The `shapefile` package ships no types; this is the part the reader uses.
declare module 'shapefile' {
  import type { Feature } from 'geojson'
  type Source = { bbox: number[]; read(): Promise<{ done: boolean; value?: Feature }> }
  const shapefile: {
    open(shp: unknown, dbf?: unknown, options?: { encoding?: string }): Promise<Source>
  }
  export default shapefile
}
