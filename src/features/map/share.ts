/** Copies text, with the old execCommand route for browsers without the async clipboard (plain http). */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text)
      return true
    }
  } catch {
    // Permission refused: fall through to the textarea route.
  }
  const area = document.createElement('textarea')
  area.value = text
  area.setAttribute('readonly', '')
  area.style.position = 'fixed'
  area.style.opacity = '0'
  document.body.append(area)
  area.select()
  let ok: boolean
  try {
    ok = document.execCommand('copy')
  } catch {
    ok = false
  }
  area.remove()
  return ok
}

/** The system share sheet where there is one (phones), else the link is copied. */
export async function shareLink(data: {
  title: string
  text?: string
  url: string
}): Promise<'shared' | 'copied' | 'cancelled' | 'failed'> {
  if (typeof navigator.share === 'function') {
    try {
      await navigator.share(data)
      return 'shared'
    } catch (err) {
      if (err instanceof DOMException && err.name === 'AbortError') return 'cancelled'
    }
  }
  return (await copyText(data.url)) ? 'copied' : 'failed'
}

/** A geo: URI that phones open in their maps app for directions; the label names the place. */
export function geoUri(lat: number, lng: number, label: string): string {
  const ll = `${lat.toFixed(6)},${lng.toFixed(6)}`
  return `geo:${ll}?q=${ll}(${encodeURIComponent(label)})`
}
