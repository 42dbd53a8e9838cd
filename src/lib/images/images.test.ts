import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import sharp from 'sharp'
import { errorTexts } from '../errors.ts'
import { readExifGps } from './exif-gps.ts'
import { admitFiles, checkImageFile, MAX_FILE_BYTES, MAX_PHOTOS } from './limits.ts'
import { ImageProcessingError, processImage, type DecodedImage, type ImagePlatform } from './process.ts'
import { fitWithin } from './resize.ts'

const photo = (name: string, size = 200_000, type = 'image/jpeg') => ({ name, size, type })

describe('which picked files are admitted', () => {
  it('admits up to 4 photos and refuses the fifth with exactly "Tối đa 4 hình ảnh."', () => {
    const { admitted, messages } = admitFiles(3, [photo('a.jpg'), photo('b.jpg')])
    expect(admitted.map((f) => f.name)).toEqual(['a.jpg'])
    expect(messages).toEqual(['Tối đa 4 hình ảnh.'])
    expect(errorTexts.MAX_FILE).toBe('Tối đa 4 hình ảnh.')
    expect(MAX_PHOTOS).toBe(4)
  })

  it('says the limit once however many files go over it', () => {
    const { admitted, messages } = admitFiles(
      0,
      Array.from({ length: 7 }, (_, i) => photo(`p${i}.jpg`)),
    )
    expect(admitted).toHaveLength(4)
    expect(messages).toEqual([errorTexts.MAX_FILE])
  })

  it('refuses any addition once 4 photos are there', () => {
    expect(admitFiles(4, [photo('e.jpg')])).toEqual({ admitted: [], messages: [errorTexts.MAX_FILE] })
  })

  it('refuses a file that is not an image, naming it, and still admits the images beside it', () => {
    const { admitted, messages } = admitFiles(0, [photo('so-do.pdf', 1000, 'application/pdf'), photo('mat-tien.jpg')])
    expect(admitted.map((f) => f.name)).toEqual(['mat-tien.jpg'])
    expect(messages).toEqual(['"so-do.pdf" không phải là hình ảnh. Vui lòng chọn ảnh (JPEG, PNG, WebP…).'])
  })

  it('refuses a file over 10 MB with a message that says the limit', () => {
    expect(checkImageFile(photo('lon.jpg', MAX_FILE_BYTES + 1))).toEqual({
      ok: false,
      message: 'Ảnh "lon.jpg" lớn hơn 10 MB. Vui lòng chọn ảnh nhỏ hơn.',
    })
    expect(checkImageFile(photo('vua.jpg', MAX_FILE_BYTES))).toEqual({ ok: true })
  })

  it('judges a file without a declared type by its extension', () => {
    expect(checkImageFile(photo('IMG_0001.HEIC', 1000, '')).ok).toBe(true)
    expect(checkImageFile(photo('ghi-chu.txt', 1000, '')).ok).toBe(false)
  })

  it('does not count refused files against the 4-photo limit', () => {
    const { admitted, messages } = admitFiles(3, [photo('x.txt', 10, 'text/plain'), photo('d.jpg')])
    expect(admitted.map((f) => f.name)).toEqual(['d.jpg'])
    expect(messages).toHaveLength(1)
    expect(messages[0]).toContain('x.txt')
  })
})

describe('resize dimensions', () => {
  it('scales a landscape photo so its width is 2048 px', () => {
    expect(fitWithin(4000, 3000)).toEqual({ width: 2048, height: 1536 })
  })

  it('scales a portrait photo so its height is 2048 px', () => {
    expect(fitWithin(3024, 4032)).toEqual({ width: 1536, height: 2048 })
  })

  it('never enlarges a small image', () => {
    expect(fitWithin(1000, 800)).toEqual({ width: 1000, height: 800 })
    expect(fitWithin(2048, 2048)).toEqual({ width: 2048, height: 2048 })
  })

  it('keeps at least one pixel on the short side of a very thin image', () => {
    expect(fitWithin(100_000, 3)).toEqual({ width: 2048, height: 1 })
  })

  it('keeps the longer edge within the limit and the aspect ratio within a pixel for any size', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20_000 }),
        fc.integer({ min: 1, max: 20_000 }),
        fc.integer({ min: 16, max: 4096 }),
        (w, h, max) => {
          const out = fitWithin(w, h, max)
          expect(Math.max(out.width, out.height)).toBe(Math.min(max, Math.max(w, h)))
          if (w >= h) expect(Math.abs(out.height - (h * out.width) / w)).toBeLessThanOrEqual(1)
          else expect(Math.abs(out.width - (w * out.height) / h)).toBeLessThanOrEqual(1)
        },
      ),
    )
  })

  it('refuses a size that is not an image size', () => {
    expect(() => fitWithin(0, 10)).toThrow(RangeError)
  })
})

async function jpegWithGps(
  lat: string,
  latRef: 'N' | 'S',
  lng: string,
  lngRef: 'E' | 'W',
): Promise<Uint8Array<ArrayBuffer>> {
  const buf = await sharp({ create: { width: 24, height: 16, channels: 3, background: '#6699cc' } })
    .jpeg()
    .withExif({ IFD3: { GPSLatitudeRef: latRef, GPSLatitude: lat, GPSLongitudeRef: lngRef, GPSLongitude: lng } })
    .toBuffer()
  return new Uint8Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer)
}

describe('GPS position from EXIF', () => {
  it('reads degrees, minutes and seconds from a JPEG', async () => {
    const gps = readExifGps(await jpegWithGps('10/1 48/1 915/100', 'N', '106/1 41/1 2727/100', 'E'))
    expect(gps?.lat).toBeCloseTo(10 + 48 / 60 + 9.15 / 3600, 7)
    expect(gps?.lng).toBeCloseTo(106 + 41 / 60 + 27.27 / 3600, 7)
  })

  it('makes southern and western positions negative', async () => {
    const gps = readExifGps(await jpegWithGps('33/1 52/1 0/1', 'S', '70/1 30/1 0/1', 'W'))
    expect(gps).toEqual({ lat: -(33 + 52 / 60), lng: -70.5 })
  })

  it('reads the position from the EXIF chunk of a WebP and a PNG', async () => {
    const exif = {
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '21/1 1/1 4260/100',
        GPSLongitudeRef: 'E',
        GPSLongitude: '105/1 51/1 1512/100',
      },
    }
    const base = sharp({ create: { width: 8, height: 8, channels: 3, background: '#fff' } })
    for (const buf of [
      await base.clone().webp().withExif(exif).toBuffer(),
      await base.clone().png().withExif(exif).toBuffer(),
    ]) {
      expect(readExifGps(new Uint8Array(buf))?.lat).toBeCloseTo(21.0285, 4)
    }
  })

  it('returns null for a photo without EXIF, for damaged data and for non-images', async () => {
    const plain = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
      .jpeg()
      .toBuffer()
    expect(readExifGps(new Uint8Array(plain))).toBeNull()
    const withGps = await jpegWithGps('10/1 0/1 0/1', 'N', '106/1 0/1 0/1', 'E')
    expect(readExifGps(withGps.slice(0, 60))).toBeNull()
    expect(readExifGps(new TextEncoder().encode('not an image at all'))).toBeNull()
  })
})

/** A stand-in for the browser's decoder and canvas that records what it was asked to do. */
function fakePlatform(opts: { width: number; height: number; webp?: boolean; decodes?: boolean }) {
  const calls: { type: string; width: number; height: number; quality: number }[] = []
  let closed = 0
  const platform: ImagePlatform = {
    async decode() {
      if (opts.decodes === false) throw new Error('cannot decode')
      return {
        source: {} as CanvasImageSource,
        width: opts.width,
        height: opts.height,
        close: () => void closed++,
      } satisfies DecodedImage
    },
    async encode(_image, size, type, quality) {
      calls.push({ type, ...size, quality })
      const out = type === 'image/webp' && opts.webp === false ? 'image/png' : type
      return new Blob([new Uint8Array(1000)], { type: out })
    },
  }
  return { platform, calls, closed: () => closed }
}

describe('processing a photo before upload', () => {
  const file = async (gps = true) =>
    new File([gps ? await jpegWithGps('10/1 48/1 0/1', 'N', '106/1 41/1 0/1', 'E') : new Uint8Array(10)], 'IMG_1.jpg', {
      type: 'image/jpeg',
    })

  it('draws the upright image at most 2048 px and encodes WebP, with a small JPEG thumbnail', async () => {
    const fake = fakePlatform({ width: 3024, height: 4032 })
    const out = await processImage(await file(), { keepGps: false, platform: fake.platform })
    expect(fake.calls).toEqual([
      { type: 'image/webp', width: 1536, height: 2048, quality: 0.82 },
      { type: 'image/jpeg', width: 240, height: 320, quality: 0.7 },
    ])
    expect(out).toMatchObject({ type: 'image/webp', width: 1536, height: 2048 })
    expect(out.thumbnail).toMatch(/^data:image\/jpeg;base64,/)
    expect(fake.closed()).toBe(1)
  })

  it('falls back to JPEG where the browser cannot encode WebP', async () => {
    const fake = fakePlatform({ width: 800, height: 600, webp: false })
    const out = await processImage(await file(), { keepGps: false, platform: fake.platform })
    expect(fake.calls.map((c) => c.type)).toEqual(['image/webp', 'image/jpeg', 'image/jpeg'])
    expect(out.type).toBe('image/jpeg')
  })

  it('keeps the GPS position beside the photo only when asked to', async () => {
    const kept = await processImage(await file(), {
      keepGps: true,
      platform: fakePlatform({ width: 10, height: 10 }).platform,
    })
    expect(kept.gps?.lat).toBeCloseTo(10.8, 6)
    const dropped = await processImage(await file(), {
      keepGps: false,
      platform: fakePlatform({ width: 10, height: 10 }).platform,
    })
    expect(dropped.gps).toBeNull()
  })

  it('says in Vietnamese that a file cannot be read when the browser cannot decode it', async () => {
    const fake = fakePlatform({ width: 10, height: 10, decodes: false })
    await expect(processImage(await file(false), { keepGps: false, platform: fake.platform })).rejects.toThrow(
      new ImageProcessingError('Không đọc được ảnh "IMG_1.jpg". Vui lòng chọn ảnh JPEG, PNG hoặc WebP.'),
    )
  })
})
