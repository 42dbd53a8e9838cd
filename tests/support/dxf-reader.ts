/**
 * Reads back the ASCII DXF the app writes, strictly enough to catch a broken file: group codes and
 * values in pairs, sections closed, EOF last, every POLYLINE's vertices up to its SEQEND. Shared by
 * the unit and end-to-end tests; a real CAD reader is not a dependency of the project.
 */
export type DxfPolyline = { layer: string; closed: boolean; vertices: [number, number][] }
export type DxfText = { layer: string; x: number; y: number; height: number; value: string }
export type DxfDrawing = {
  version: string | undefined
  sections: string[]
  layers: string[]
  polylines: DxfPolyline[]
  points: [number, number][]
  texts: DxfText[]
}

export function readDxf(source: string): DxfDrawing {
  const lines = source.split(/\r?\n/)
  if (lines[lines.length - 1] === '') lines.pop()
  if (lines.length % 2 !== 0) throw new Error('DXF: odd number of lines (group code without value)')
  const pairs: [number, string][] = []
  for (let i = 0; i < lines.length; i += 2) {
    const code = Number(lines[i]!.trim())
    if (!Number.isInteger(code)) throw new Error(`DXF: line ${i + 1} is not a group code: ${lines[i]}`)
    pairs.push([code, lines[i + 1]!])
  }
  const last = pairs[pairs.length - 1]
  if (!last || last[0] !== 0 || last[1] !== 'EOF') throw new Error('DXF: does not end with EOF')
  const out: DxfDrawing = { version: undefined, sections: [], layers: [], polylines: [], points: [], texts: [] }
  let section: string | null = null
  let current: DxfPolyline | null = null
  for (let i = 0; i < pairs.length; i++) {
    const [code, value] = pairs[i]!
    if (code === 9 && value === '$ACADVER') out.version = pairs[i + 1]?.[1]
    if (code !== 0) continue
    // The entity's own group codes, up to the next 0.
    const group = new Map<number, string>()
    for (let j = i + 1; j < pairs.length && pairs[j]![0] !== 0; j++) group.set(pairs[j]![0], pairs[j]![1])
    const num = (c: number) => {
      const v = Number(group.get(c))
      if (!Number.isFinite(v)) throw new Error(`DXF: ${value} without a number in group ${c}`)
      return v
    }
    if (value === 'SECTION') {
      if (section) throw new Error(`DXF: section ${group.get(2)} opened inside ${section}`)
      section = group.get(2) ?? '?'
      out.sections.push(section)
    } else if (value === 'ENDSEC') {
      if (!section) throw new Error('DXF: ENDSEC without SECTION')
      section = null
    } else if (value === 'LAYER' && section === 'TABLES') out.layers.push(group.get(2) ?? '')
    else if (value === 'POLYLINE')
      current = { layer: group.get(8) ?? '0', closed: (Number(group.get(70) ?? 0) & 1) === 1, vertices: [] }
    else if (value === 'VERTEX') {
      if (!current) throw new Error('DXF: VERTEX outside a POLYLINE')
      current.vertices.push([num(10), num(20)])
    } else if (value === 'SEQEND') {
      if (!current) throw new Error('DXF: SEQEND without POLYLINE')
      out.polylines.push(current)
      current = null
    } else if (value === 'POINT') out.points.push([num(10), num(20)])
    else if (value === 'TEXT')
      out.texts.push({ layer: group.get(8) ?? '0', x: num(10), y: num(20), height: num(40), value: group.get(1) ?? '' })
  }
  if (section) throw new Error(`DXF: section ${section} not closed`)
  if (current) throw new Error('DXF: POLYLINE without SEQEND')
  return out
}
