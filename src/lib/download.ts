import { foldVietnamese } from '#core/text/fold.ts'

/** A file name without diacritics or spaces: "so-do-to-12-thua-34.dxf". */
export function fileName(base: string, ext: string): string {
  const slug = foldVietnamese(base)
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
  return `${slug || 'so-do'}.${ext}`
}

/** Hands a text file to the browser as a download. */
export function download(name: string, body: string, type: string): void {
  const url = URL.createObjectURL(new Blob([body], { type }))
  const a = document.createElement('a')
  a.href = url
  a.download = name
  document.body.append(a)
  a.click()
  a.remove()
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}
