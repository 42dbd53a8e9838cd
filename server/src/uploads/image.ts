import { MAX_EDGE_PX, MAX_PHOTO_PIXELS } from '#core/limits.ts'
import sharp, { type Metadata, type Sharp } from 'sharp'
import { NotAnImageError, TooLargeError } from '../domain-errors.ts'

export type ImageKind = 'jpeg' | 'png' | 'webp'

export type EncodedImage = {
  bytes: Buffer
  contentType: 'image/jpeg' | 'image/webp'
  width: number
  height: number
}

export type ProcessedImage = { image: EncodedImage; thumb: EncodedImage }

export const MAX_IMAGE_SIDE = MAX_EDGE_PX
export const THUMB_SIDE = 320
const QUALITY = 82
// Decoded pixels are not kept for later requests: memory goes back once a photo is done.
sharp.cache(false)

/**
 * Photos are decoded one at a time in this process, in the order they arrive. Decoding runs on libuv's
 * thread pool, where scrypt (every login) runs too: several large photos at once took every thread,
 * delayed logins by seconds and each held a lot of memory (docs/performance.md, "Photos"). Waiting here
 * costs an upload some time, never a login, and memory stays that of one decode.
 */
export const photoDecoding = (() => {
  let running = 0
  let tail: Promise<unknown> = Promise.resolve()
  return {
    running: () => running,
    run<T>(work: () => Promise<T>): Promise<T> {
      const turn = tail.then(async () => {
        running++
        try {
          return await work()
        } finally {
          running--
        }
      })
      tail = turn.catch(() => {})
      return turn
    },
  }
})()

const notAnImage = () => new NotAnImageError('Tệp không phải ảnh JPEG, PNG hoặc WebP hợp lệ.')

/** The file's real type from its first bytes; names and declared types are never trusted. */
export function sniffImage(bytes: Uint8Array): ImageKind | null {
  const at = (i: number, ...values: number[]) => values.every((v, j) => bytes[i + j] === v)
  if (at(0, 0xff, 0xd8, 0xff)) return 'jpeg'
  if (at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'png'
  // RIFF <size> WEBP
  if (at(0, 0x52, 0x49, 0x46, 0x46) && at(8, 0x57, 0x45, 0x42, 0x50)) return 'webp'
  return null
}

/**
 * Checks that `input` really is a JPEG/PNG/WebP by decoding every pixel, and re-encodes it: turned
 * upright by its EXIF orientation, at most 2048 px, without any metadata (GPS, comments, trailing
 * bytes), plus a thumbnail. Nothing of the original file survives except its pixels. Waits for its turn
 * (photoDecoding). Throws NotAnImageError (not an image, broken) or TooLargeError (too many pixels).
 */
export function processImage(input: Uint8Array): Promise<ProcessedImage> {
  return photoDecoding.run(() => decodeAndEncode(input))
}

async function decodeAndEncode(input: Uint8Array): Promise<ProcessedImage> {
  const kind = sniffImage(input)
  if (!kind) throw notAnImage()
  // 'error' rejects truncated and corrupt pixel data; libjpeg's harmless warnings on real camera
  // files would make 'warning' refuse genuine photos, and the re-encode drops whatever they carried.
  const open = (limitInputPixels: number | false = MAX_PHOTO_PIXELS) =>
    sharp(input, { failOn: 'error', limitInputPixels, pages: 1 })
  let meta: Metadata
  try {
    // Reading the header costs nothing; the pixel limit is checked below to answer it as too large.
    meta = await open(false).metadata()
  } catch {
    throw notAnImage()
  }
  // The decoder that read the header must be the one the magic bytes announced.
  if (meta.format !== kind || !meta.width || !meta.height) throw notAnImage()
  if (meta.width * meta.height > MAX_PHOTO_PIXELS) {
    throw new TooLargeError(
      `Ảnh có độ phân giải quá lớn (tối đa ${Math.floor(MAX_PHOTO_PIXELS / 1_000_000)} megapixel).`,
    )
  }
  // JPEG keeps photos small and opens everywhere; WebP only where transparency must survive.
  const format = meta.hasAlpha ? 'webp' : 'jpeg'
  let image: EncodedImage
  try {
    image = await encode(open().rotate(), MAX_IMAGE_SIDE, format)
  } catch {
    throw notAnImage()
  }
  // The thumbnail comes from the already clean, smaller image: one more cheap decode, not a second full one.
  const thumb = await encode(sharp(image.bytes), THUMB_SIDE, format)
  return { image, thumb }
}

/**
 * processImage for each file in turn (a decoded photo can take hundreds of MB; four at once would
 * multiply that). A refusal names the file by its position in errors.images.
 */
export async function processImages(files: readonly Uint8Array[]): Promise<ProcessedImage[]> {
  const out: ProcessedImage[] = []
  for (const [i, file] of files.entries()) {
    try {
      out.push(await processImage(file))
    } catch (err) {
      if (!(err instanceof NotAnImageError || err instanceof TooLargeError)) throw err
      const Kind = err instanceof NotAnImageError ? NotAnImageError : TooLargeError
      throw new Kind(err.message, { fields: { images: [`Tệp thứ ${i + 1}: ${err.message}`] } })
    }
  }
  return out
}

async function encode(pipeline: Sharp, side: number, format: 'jpeg' | 'webp'): Promise<EncodedImage> {
  const resized = pipeline.resize({ width: side, height: side, fit: 'inside', withoutEnlargement: true })
  const out = format === 'jpeg' ? resized.jpeg({ quality: QUALITY }) : resized.webp({ quality: QUALITY })
  const { data, info } = await out.toBuffer({ resolveWithObject: true })
  return {
    bytes: data,
    contentType: format === 'jpeg' ? 'image/jpeg' : 'image/webp',
    width: info.width,
    height: info.height,
  }
}
