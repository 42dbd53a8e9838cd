import { readFileSync } from 'node:fs'
import { basename, extname } from 'node:path'
import { kmlWithFolders, type F, type Folder } from '@tmcw/togeojson'
import { DOMParser } from '@xmldom/xmldom'
import { unzipSync } from 'fflate'
import { ImportError } from '../errors.ts'
import type { SourceRecord } from '../types.ts'
import type { TextEncoding } from '../vietnamese-encodings.ts'
import type { Reader } from './reader.ts'
import { decodeRecords } from './text.ts'

/** A placemark with the layer it belongs to: its innermost folder, or the file's name outside any folder. */
type Placed = { layer: string; feature: F }

function flatten(children: (Folder | F)[], layer: string, out: Placed[]): Placed[] {
  for (const child of children) {
    if (child.type === 'folder') {
      const name = typeof child.meta.name === 'string' && child.meta.name.trim() ? child.meta.name.trim() : layer
      flatten(child.children, name, out)
    } else {
      out.push({ layer, feature: child })
    }
  }
  return out
}

/** The KML text of a .kml, or of the first .kml inside a .kmz (Google Earth's zipped KML). */
function kmlText(file: string): string {
  const bytes = readFileSync(file)
  if (extname(file).toLowerCase() !== '.kmz') return new TextDecoder().decode(bytes)
  let entries: Record<string, Uint8Array>
  try {
    entries = unzipSync(bytes, { filter: (f) => /\.kml$/i.test(f.name) })
  } catch (err) {
    throw new ImportError(`Không giải nén được ${basename(file)}: ${(err as Error).message}`)
  }
  const name = Object.keys(entries).sort((a, b) => Number(b === 'doc.kml') - Number(a === 'doc.kml'))[0]
  if (!name) throw new ImportError(`${basename(file)} không chứa tệp .kml nào`)
  return new TextDecoder().decode(entries[name])
}

/** Every placemark of a KML/KMZ with its layer (folder), parsed once; KML files are small enough to hold. */
function placemarks(file: string): Placed[] {
  const errors: string[] = []
  const doc = new DOMParser({
    onError: (level, message) => {
      if (level !== 'warning') errors.push(message)
    },
  }).parseFromString(kmlText(file), 'text/xml')
  if (errors.length > 0 || !doc.documentElement)
    throw new ImportError(`Tệp KML hỏng, không đọc được: ${errors[0] ?? 'không có phần tử gốc'}`)
  const stem = basename(file, extname(file))
  const docName = doc.getElementsByTagName('Document')[0]?.getElementsByTagName('name')[0]?.textContent?.trim()
  return flatten(kmlWithFolders(doc).children, docName || stem, [])
}

/** The layers of a KML/KMZ as `--list-layers` prints them: the folders holding placemarks, with their counts. */
export function kmlLayers(file: string): { name: string; count: number }[] {
  const counts = new Map<string, number>()
  for (const p of placemarks(file)) counts.set(p.layer, (counts.get(p.layer) ?? 0) + 1)
  return [...counts].map(([name, count]) => ({ name, count }))
}

/**
 * Reads Google Earth's KML and KMZ with a maintained KML→GeoJSON library (togeojson over an XML
 * DOM): each placemark's name, description and every ExtendedData value (SchemaData/SimpleData and
 * Data/value) become its columns, which GDAL's KML driver here leaves out. Coordinates are WGS84 by
 * definition. A file with placemarks in several folders needs --layer, as a GeoPackage does.
 */
export function readKml(
  file: string,
  opts: { layer?: string | undefined; encoding?: TextEncoding | undefined },
): Reader {
  const all = placemarks(file)
  const layers = kmlLayers(file)
  const list = () => layers.map((l) => `${l.name} (${l.count})`).join(', ')
  let layer: string | undefined
  if (opts.layer !== undefined) {
    layer = layers.find((l) => l.name === opts.layer || l.name.toLowerCase() === opts.layer!.toLowerCase())?.name
    if (layer === undefined)
      throw new ImportError(`Tệp ${basename(file)} không có lớp ${JSON.stringify(opts.layer)}; các lớp: ${list()}`)
  } else if (layers.length > 1) {
    throw new ImportError(`Tệp ${basename(file)} có ${layers.length} lớp: ${list()}; chọn một bằng --layer <tên>`)
  }
  const chosen = layer === undefined ? all : all.filter((p) => p.layer === layer)
  let done = 0
  async function* records(): AsyncGenerator<SourceRecord> {
    for (const { feature } of chosen) {
      done++
      const props: Record<string, unknown> = {}
      for (const [k, v] of Object.entries(feature.properties ?? {}))
        if (v === null || typeof v !== 'object') props[k] = v
      yield { n: done, props, geometry: feature.geometry }
    }
  }
  const text = decodeRecords(
    records(),
    opts.encoding ? { encoding: opts.encoding, from: 'option' } : { detect: true, fallback: 'utf-8' },
    { unicode: true },
  )
  return {
    format: 'kml',
    unit: 'đối tượng',
    declaredCrs: { kind: 'wgs84' },
    prj: null,
    crsSource: 'KML, luôn là WGS84',
    looksProjected: false,
    records: text.records,
    text: text.outcome,
    progress: () => ({ done, total: chosen.length }),
    close: async () => {},
  }
}
