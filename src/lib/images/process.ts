/**
 * Prepares a photo for upload on the device: turned upright by its EXIF orientation, scaled so its
 * longer edge is at most 2048 px, and re-encoded as WebP (JPEG where the browser cannot encode WebP).
 * A phone photo of 4–8 MB becomes a few hundred kB, which matters on a weak mobile signal.
 *
 * Location: drawing through a canvas drops every byte of metadata, so the uploaded file never carries
 * the camera's GPS position (nor anything else hidden in EXIF), and the server strips metadata again
 * when it re-encodes. When the user keeps "giữ vị trí GPS" on, the position is read from the original
 * file here, before re-encoding, and returned beside the image as `gps`: the app keeps it with the
 * photo (preview, report, history) instead of writing it back into the file. Off, it is never read.
 */
import { readExifGps, type GpsPoint } from './exif-gps.ts'
import { MAX_EDGE_PX, MAX_FILE_BYTES } from './limits.ts'
import { fitWithin } from './resize.ts'

export type DecodedImage = {
  source: CanvasImageSource
  /** Size after orientation, as the photo is meant to be seen. */
  width: number
  height: number
  close(): void
}

/** What the browser does for us; tests pass their own. */
export type ImagePlatform = {
  decode(file: Blob): Promise<DecodedImage>
  encode(image: DecodedImage, size: { width: number; height: number }, type: string, quality: number): Promise<Blob>
}

export type ProcessedImage = {
  blob: Blob
  type: string
  width: number
  height: number
  /** A small JPEG data URL: previews in the history and the printed report, kept after the blob is gone. */
  thumbnail: string
  gps: GpsPoint | null
}

export class ImageProcessingError extends Error {}

export const THUMB_EDGE_PX = 320

async function decodeInBrowser(file: Blob): Promise<DecodedImage> {
  if (typeof createImageBitmap === 'function') {
    // 'from-image' applies the EXIF orientation, so a portrait phone photo is not drawn on its side.
    const bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' })
    return { source: bitmap, width: bitmap.width, height: bitmap.height, close: () => bitmap.close() }
  }
  // Older engines: an <img> also honours EXIF orientation (CSS image-orientation defaults to from-image).
  const url = URL.createObjectURL(file)
  const img = new Image()
  img.src = url
  try {
    await img.decode()
  } catch (err) {
    URL.revokeObjectURL(url)
    throw err
  }
  return { source: img, width: img.naturalWidth, height: img.naturalHeight, close: () => URL.revokeObjectURL(url) }
}

async function encodeInBrowser(
  image: DecodedImage,
  size: { width: number; height: number },
  type: string,
  quality: number,
): Promise<Blob> {
  if (typeof OffscreenCanvas === 'function') {
    const canvas = new OffscreenCanvas(size.width, size.height)
    const ctx = canvas.getContext('2d')
    if (!ctx) throw new ImageProcessingError('canvas 2d unavailable')
    ctx.imageSmoothingQuality = 'high'
    ctx.drawImage(image.source, 0, 0, size.width, size.height)
    return canvas.convertToBlob({ type, quality })
  }
  const canvas = document.createElement('canvas')
  canvas.width = size.width
  canvas.height = size.height
  const ctx = canvas.getContext('2d')
  if (!ctx) throw new ImageProcessingError('canvas 2d unavailable')
  ctx.imageSmoothingQuality = 'high'
  ctx.drawImage(image.source, 0, 0, size.width, size.height)
  return new Promise((resolve, reject) =>
    canvas.toBlob((b) => (b ? resolve(b) : reject(new ImageProcessingError('toBlob failed'))), type, quality),
  )
}

export const browserImagePlatform: ImagePlatform = { decode: decodeInBrowser, encode: encodeInBrowser }

export function blobToDataUrl(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader()
    reader.onload = () => resolve(String(reader.result))
    reader.onerror = () => reject(reader.error ?? new Error('read failed'))
    reader.readAsDataURL(blob)
  })
}

/**
 * Upright, ≤ `maxEdge` px, WebP or JPEG, no metadata. Throws ImageProcessingError with a Vietnamese
 * message when the browser cannot read the file as an image.
 */
export async function processImage(
  file: File,
  opts: { keepGps: boolean; maxEdge?: number; platform?: ImagePlatform } = { keepGps: false },
): Promise<ProcessedImage> {
  const platform = opts.platform ?? browserImagePlatform
  const gps = opts.keepGps ? readExifGps(await file.arrayBuffer()) : null
  let image: DecodedImage
  try {
    image = await platform.decode(file)
  } catch {
    throw new ImageProcessingError(`Không đọc được ảnh "${file.name}". Vui lòng chọn ảnh JPEG, PNG hoặc WebP.`)
  }
  try {
    const size = fitWithin(image.width, image.height, opts.maxEdge ?? MAX_EDGE_PX)
    let blob = await platform.encode(image, size, 'image/webp', 0.82)
    // A browser that cannot encode WebP silently returns PNG, which is much larger: use JPEG instead.
    if (blob.type !== 'image/webp') blob = await platform.encode(image, size, 'image/jpeg', 0.85)
    if (blob.size > MAX_FILE_BYTES)
      throw new ImageProcessingError(`Ảnh "${file.name}" vẫn lớn hơn 10 MB sau khi thu nhỏ.`)
    const thumb = await platform.encode(image, fitWithin(image.width, image.height, THUMB_EDGE_PX), 'image/jpeg', 0.7)
    return { blob, type: blob.type, width: size.width, height: size.height, thumbnail: await blobToDataUrl(thumb), gps }
  } catch (err) {
    if (err instanceof ImageProcessingError) throw err
    throw new ImageProcessingError(`Không xử lý được ảnh "${file.name}". Vui lòng thử ảnh khác.`)
  } finally {
    image.close()
  }
}
