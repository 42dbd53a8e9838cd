/**
 * Every key the app keeps in localStorage, sessionStorage or IndexedDB, in one list so two features
 * never collide and a "clear my data" action knows what exists.
 */
export const storageKeys = {
  /** localStorage: the signed-in session, shared by every tab. */
  session: 'qh.session',
  /** localStorage: toasts still on screen, so a reload does not swallow a message. */
  toasts: 'qh.toasts',
  /** localStorage: 'light' | 'dark' | 'auto' (auto follows the system). */
  colorScheme: 'qh.color-scheme',
  /** IndexedDB (idb-keyval): the last known daily usage, shown offline. */
  usage: 'qh.usage',
  /** localStorage: what the user typed on the valuation screen, so a reload loses nothing. */
  valuationDraft: 'qh.valuation-draft',
  /** IndexedDB database (idb-keyval, object store 'queue'): a valuation asked offline, waiting for the link to return. */
  valuationQueueDb: 'qh-valuation-queue',
  /** IndexedDB database (idb-keyval, object store 'history'): past planning and valuation results. */
  historyDb: 'qh-history',
  /** IndexedDB database (idb-keyval, object store 'walks'): the boundary walk in progress, kept through screen-offs and reopenings. */
  walkDb: 'qh-walk',
  /** localStorage: when the install prompt was last dismissed (ms), so it is not shown again at once. */
  installDismissed: 'qh.install-dismissed',
  /** localStorage: each raster planning overlay's on/off and opacity on the map, by overlay id. */
  overlayChoices: 'qh.overlay-choices',
  /** localStorage: a place tapped offline outside every saved area, to offer saving once online. */
  saveReminder: 'qh.save-reminder',
  /** localStorage: the position source chosen (phone or receiver), the receiver's baud rate, antenna height and accuracy gate. */
  position: 'qh.position',
  /** IndexedDB database (idb-keyval, object store 'marks'): stakeout results (corners found or lost, measured points), kept until exported or cleared. */
  stakeoutDb: 'qh-stakeout',
  /** IndexedDB database (idb-keyval, object store 'measures'): measurements the user named and kept on the map. */
  measuresDb: 'qh-measures',
  /** sessionStorage prefix + path: when a chunk-load failure last reloaded that path. */
  chunkReloadPrefix: 'qh.chunk-reload:',
} as const
