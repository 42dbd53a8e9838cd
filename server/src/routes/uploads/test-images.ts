import sharp from 'sharp'

/** Test photos made on the fly: small, real encoder output, with enough texture to be a photo. */
export function photo(
  format: 'jpeg' | 'png' | 'webp',
  width: number,
  height: number,
  opts: { alpha?: boolean } = {},
): Promise<Buffer> {
  const channels = opts.alpha ? 4 : 3
  const base = sharp({
    create: {
      width,
      height,
      channels,
      background: { r: 40, g: 120, b: 200, alpha: opts.alpha ? 0.5 : 1 },
      noise: { type: 'gaussian', mean: 120, sigma: 30 },
    },
  })
  return base.toFormat(format).toBuffer()
}

/**
 * A JPEG stored sideways as cameras do: pixels 60×40 with red on top and blue below, tagged
 * EXIF orientation 6 (turn 90° clockwise to show it), plus a GPS position and a description.
 */
export async function sidewaysJpegWithGps(): Promise<Buffer> {
  const band = (color: string) =>
    sharp({ create: { width: 60, height: 20, channels: 3, background: color } })
      .png()
      .toBuffer()
  return sharp({ create: { width: 60, height: 40, channels: 3, background: '#000000' } })
    .composite([
      { input: await band('#ff0000'), top: 0, left: 0 },
      { input: await band('#0000ff'), top: 20, left: 0 },
    ])
    .jpeg()
    .withMetadata({ orientation: 6 })
    .withExif({
      IFD0: { ImageDescription: 'GHI-CHU-BI-MAT' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '10/1 46/1 12/1',
        GPSLongitudeRef: 'E',
        GPSLongitude: '106/1 42/1 0/1',
      },
    })
    .toBuffer()
}

/** A JPEG with a comment segment (COM, FF FE) right after its start marker carrying `text`. */
export function withJpegComment(jpeg: Buffer, text: string): Buffer {
  const payload = Buffer.from(text, 'utf8')
  const length = Buffer.alloc(2)
  length.writeUInt16BE(payload.length + 2)
  return Buffer.concat([jpeg.subarray(0, 2), Buffer.from([0xff, 0xfe]), length, payload, jpeg.subarray(2)])
}

/** Red/green/blue at (x, y) of a decoded image. */
export async function pixelAt(image: Uint8Array, x: number, y: number): Promise<[number, number, number]> {
  const { data, info } = await sharp(image).raw().toBuffer({ resolveWithObject: true })
  const i = (y * info.width + x) * info.channels
  return [data[i] ?? -1, data[i + 1] ?? -1, data[i + 2] ?? -1]
}

export type Part = { bytes: Uint8Array; name?: string; filename?: string; type?: string }

/**
 * multipart/form-data with each part as a file (field `images` unless named), already encoded: a
 * FormData body streamed by fetch's own encoder trips over a server that stops reading early.
 */
export async function form(parts: Part[]): Promise<{ body: Uint8Array<ArrayBuffer>; contentType: string }> {
  const fd = new FormData()
  for (const [i, p] of parts.entries()) {
    fd.append(
      p.name ?? 'images',
      new Blob([p.bytes as Uint8Array<ArrayBuffer>], { type: p.type ?? 'application/octet-stream' }),
      p.filename ?? `anh-${i + 1}.jpg`,
    )
  }
  return encodeForm(fd)
}

export async function encodeForm(fd: FormData): Promise<{ body: Uint8Array<ArrayBuffer>; contentType: string }> {
  const res = new Response(fd)
  return { body: new Uint8Array(await res.arrayBuffer()), contentType: res.headers.get('content-type') ?? '' }
}
