import { deflateSync } from 'node:zlib'
import { PbfWriter } from 'pbf'

/**
 * A minimal OpenStreetMap PBF writer for tests (https://wiki.openstreetmap.org/wiki/PBF_Format): one
 * header blob and one data blob with dense nodes and ways, zlib-compressed as extracts are. GDAL's
 * OSM driver reads PBF but cannot write it, so the tests make their own small extract with this.
 */
export type OsmNode = { id: number; lat: number; lon: number; tags?: Record<string, string> }
export type OsmWay = { id: number; refs: number[]; tags: Record<string, string> }

function blob(type: string, message: Uint8Array): Buffer {
  const blobMsg = new PbfWriter()
  blobMsg.writeVarintField(2, message.length) // raw_size
  blobMsg.writeBytesField(3, deflateSync(message)) // zlib_data
  const body = blobMsg.finish()
  const header = new PbfWriter()
  header.writeStringField(1, type)
  header.writeVarintField(3, body.length) // datasize
  const head = header.finish()
  const size = Buffer.alloc(4)
  size.writeUInt32BE(head.length)
  return Buffer.concat([size, head, body])
}

const deltas = (values: number[]) => values.map((v, i) => v - (i === 0 ? 0 : values[i - 1]!))

export function writeOsmPbf(nodes: OsmNode[], ways: OsmWay[]): Buffer {
  const headerBlock = new PbfWriter()
  headerBlock.writeStringField(4, 'OsmSchema-V0.6')
  headerBlock.writeStringField(4, 'DenseNodes')
  headerBlock.writeStringField(16, 'quy-hoach-vn tests')

  const strings = ['']
  const sid = (s: string) => {
    const i = strings.indexOf(s)
    return i >= 0 ? i : strings.push(s) - 1
  }
  // Granularity 100 nanodegrees (the default): coordinates as integers of 1e-7 degree.
  const sorted = [...nodes].sort((a, b) => a.id - b.id)
  const keysVals = sorted.flatMap((n) => [...Object.entries(n.tags ?? {}).flatMap(([k, v]) => [sid(k), sid(v)]), 0])
  const wayTags = ways.map((w) => Object.entries(w.tags).map(([k, v]) => [sid(k), sid(v)] as const))

  const block = new PbfWriter()
  block.writeMessage(
    1,
    (_: unknown, pbf: PbfWriter) => {
      for (const s of strings) pbf.writeBytesField(1, new TextEncoder().encode(s))
    },
    null,
  )
  block.writeMessage(
    2,
    (_: unknown, group: PbfWriter) => {
      group.writeMessage(
        2,
        (__: unknown, dense: PbfWriter) => {
          dense.writePackedSVarint(1, deltas(sorted.map((n) => n.id)))
          dense.writePackedSVarint(8, deltas(sorted.map((n) => Math.round(n.lat * 1e7))))
          dense.writePackedSVarint(9, deltas(sorted.map((n) => Math.round(n.lon * 1e7))))
          dense.writePackedVarint(10, keysVals)
        },
        null,
      )
    },
    null,
  )
  block.writeMessage(
    2,
    (_: unknown, group: PbfWriter) => {
      ways.forEach((w, i) => {
        group.writeMessage(
          3,
          (__: unknown, way: PbfWriter) => {
            way.writeVarintField(1, w.id)
            way.writePackedVarint(
              2,
              wayTags[i]!.map((t) => t[0]),
            )
            way.writePackedVarint(
              3,
              wayTags[i]!.map((t) => t[1]),
            )
            way.writePackedSVarint(8, deltas(w.refs))
          },
          null,
        )
      })
    },
    null,
  )
  return Buffer.concat([blob('OSMHeader', headerBlock.finish()), blob('OSMData', block.finish())])
}
