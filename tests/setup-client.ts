import * as webStreams from 'node:stream/web'
import 'fake-indexeddb/auto'

// Mantine reads the colour scheme through matchMedia, which jsdom does not have: no query matches. (Files that ask
// for the node environment have no window.)
if (typeof window !== 'undefined')
  window.matchMedia ??= ((query: string) => ({
    matches: false,
    media: query,
    addEventListener() {},
    removeEventListener() {},
    addListener() {},
    removeListener() {},
    onchange: null,
    dispatchEvent: () => false,
  })) as never

// The vmThreads pool (vitest.config.ts) runs each file in jsdom's own context, which lacks Node's web streams.
for (const [name, value] of Object.entries(webStreams)) (globalThis as Record<string, unknown>)[name] ??= value
