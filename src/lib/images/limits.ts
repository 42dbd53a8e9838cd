import { errorTexts } from '../errors.ts'

import { MAX_EDGE_PX, MAX_FILE_BYTES, MAX_PHOTOS } from '#core/limits.ts'

/** The server's upload limits (docs/api.md, POST /api/uploads), checked here too before any byte is sent. */
export { MAX_EDGE_PX, MAX_FILE_BYTES, MAX_PHOTOS }

/** Extensions browsers decode, for files whose type the platform leaves empty (some Android pickers). */
const IMAGE_EXTENSIONS = /\.(jpe?g|png|webp|gif|bmp|avif|heic|heif)$/i

export type FileCheck = { ok: true } | { ok: false; message: string }

/** Refuses what is not an image or is over the size limit, with a message that names the file. */
export function checkImageFile(file: Pick<File, 'name' | 'type' | 'size'>): FileCheck {
  const isImage = file.type ? file.type.startsWith('image/') : IMAGE_EXTENSIONS.test(file.name)
  if (!isImage)
    return { ok: false, message: `"${file.name}" không phải là hình ảnh. Vui lòng chọn ảnh (JPEG, PNG, WebP…).` }
  if (file.size > MAX_FILE_BYTES) {
    return {
      ok: false,
      message: `Ảnh "${file.name}" lớn hơn ${MAX_FILE_BYTES / 1024 / 1024} MB. Vui lòng chọn ảnh nhỏ hơn.`,
    }
  }
  if (file.size === 0) return { ok: false, message: `Ảnh "${file.name}" trống, không đọc được.` }
  return { ok: true }
}

/**
 * Which of the newly picked files join a list that already holds `existing` photos: images within the
 * limits, in the order picked, up to MAX_PHOTOS in all. Anything beyond the fourth is refused once with
 * exactly the MAX_FILE text; other refusals name their file.
 */
export function admitFiles<F extends Pick<File, 'name' | 'type' | 'size'>>(
  existing: number,
  picked: readonly F[],
): { admitted: F[]; messages: string[] } {
  const admitted: F[] = []
  const messages: string[] = []
  let overLimit = false
  for (const file of picked) {
    const check = checkImageFile(file)
    if (!check.ok) {
      messages.push(check.message)
      continue
    }
    if (existing + admitted.length >= MAX_PHOTOS) {
      overLimit = true
      continue
    }
    admitted.push(file)
  }
  if (overLimit) messages.push(errorTexts.MAX_FILE)
  return { admitted, messages }
}
