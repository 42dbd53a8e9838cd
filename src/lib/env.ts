/** The one place that reads build-time configuration (import.meta.env) and the running build's id. */
export const env = {
  /** Where the API lives; empty means the same origin as the app. */
  apiBaseUrl: String(import.meta.env.VITE_API_BASE_URL ?? '').replace(/\/+$/, ''),
  dev: import.meta.env.DEV,
}

/** The build id the build step writes into index.html; undefined in development. */
export function readBuildId(doc: Document = document): string | undefined {
  return doc.querySelector<HTMLMetaElement>('meta[name="build-id"]')?.content || undefined
}
