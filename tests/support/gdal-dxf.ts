import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openVector } from '../../server/src/gdal/vector.ts'

type Geometry = { type: string; coordinates: unknown }
/** One DXF entity as GDAL reads it: its CAD layer, its text (TEXT entities) and its geometry. */
export type GdalDxfEntity = { layer: string; text: string | null; geometry: Geometry | null }

/**
 * Reads a DXF file's text the way CAD and GIS programs do, with GDAL's DXF driver (gdal3.js, the
 * importer's own GDAL), rather than with a reader written for the test.
 */
export async function readDxfWithGdal(
  dxf: string | Uint8Array,
): Promise<{ driver: string; entities: GdalDxfEntity[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'qh-dxf-'))
  const file = join(dir, 'so-do.dxf')
  writeFileSync(file, dxf)
  const vector = await openVector(file)
  try {
    const entities: GdalDxfEntity[] = []
    for (const layer of vector.layers)
      for await (const f of vector.features(layer.name))
        entities.push({
          layer: String(f.props.Layer ?? ''),
          text: typeof f.props.Text === 'string' ? f.props.Text : null,
          geometry: f.geometry as Geometry | null,
        })
    return { driver: vector.driver, entities }
  } finally {
    await vector.close()
    rmSync(dir, { recursive: true, force: true })
  }
}
