/**
 * What every DXF the app writes (the parcel sketch, stakeout marks, saved measurements) shares: ASCII DXF in
 * AutoCAD R12's structure, which every CAD program opens, as group-code/value pairs. Drawing units are metres
 * in VN-2000 with CAD's axes (drawing X = easting, Y = northing); the callers place their own entities.
 */
export type DxfPair = [code: number, value: string | number]

const f3 = (v: number) => v.toFixed(3)

/**
 * Text for an MTEXT entity: every character outside printable ASCII as a `\U+XXXX` escape, which
 * AutoCAD, BricsCAD, LibreCAD and GDAL (so QGIS) turn back into the character whatever the drawing's
 * code page, so Vietnamese survives ("Thửa" → "Th\U+1EEDa"). MTEXT's own
 * control characters (backslash, braces) are escaped too. Returned as characters, so a long text can be
 * cut into 250-character chunks without splitting an escape.
 */
export function dxfUnicode(text: string): string[] {
  return [...text.normalize('NFC')].map((ch) => {
    if (ch === '\\' || ch === '{' || ch === '}') return `\\${ch}`
    const code = ch.codePointAt(0)!
    return code >= 0x20 && code < 0x7f ? ch : `\\U+${code.toString(16).toUpperCase().padStart(4, '0')}`
  })
}

/** Words as MTEXT with `\U+` escapes, its middle at (x, y); chunks of 250 characters as DXF asks. */
export function dxfWords(layer: string, x: number, y: number, height: number, value: string): DxfPair[] {
  const chars = dxfUnicode(value)
  const chunks: string[] = []
  for (let i = 0; i < chars.length; i += 250) chunks.push(chars.slice(i, i + 250).join(''))
  const last = chunks.pop() ?? ''
  return [
    [0, 'MTEXT'],
    [8, layer],
    [10, f3(x)],
    [20, f3(y)],
    [30, '0.0'],
    [40, f3(height)],
    // 5: attached at its middle centre, so a label stands centred on its place.
    [71, 5],
    ...chunks.map((c): DxfPair => [3, c]),
    [1, last],
  ]
}

/** The LAYER table: each layer by name with its colour (an AutoCAD colour index), drawn in solid lines. */
export function dxfLayerTable(layers: readonly { name: string; color: number }[]): DxfPair[] {
  return [
    [0, 'TABLE'],
    [2, 'LAYER'],
    [70, layers.length],
    ...layers.flatMap((l): DxfPair[] => [
      [0, 'LAYER'],
      [2, l.name],
      [70, 0],
      [62, l.color],
      [6, 'CONTINUOUS'],
    ]),
    [0, 'ENDTAB'],
  ]
}

/** The pairs as the file's text: each group code right-aligned in three characters, CRLF line ends. */
export function dxfText(pairs: readonly DxfPair[]): string {
  return pairs.map(([code, value]) => `${String(code).padStart(3, ' ')}\r\n${value}`).join('\r\n') + '\r\n'
}
