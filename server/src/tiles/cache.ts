/** Least-recently-used map bounded by the total byte size of its values. */
export class ByteLru<V> {
  readonly maxBytes: number
  #bytes = 0
  readonly #entries = new Map<string, { value: V; size: number }>()

  constructor(maxBytes: number) {
    this.maxBytes = maxBytes
  }

  get bytes(): number {
    return this.#bytes
  }

  get size(): number {
    return this.#entries.size
  }

  get(key: string): V | undefined {
    const entry = this.#entries.get(key)
    if (!entry) return undefined
    this.#entries.delete(key)
    this.#entries.set(key, entry)
    return entry.value
  }

  /** Values larger than the whole budget are not kept. */
  set(key: string, value: V, size: number): void {
    const old = this.#entries.get(key)
    if (old) {
      this.#entries.delete(key)
      this.#bytes -= old.size
    }
    if (size > this.maxBytes) return
    this.#entries.set(key, { value, size })
    this.#bytes += size
    for (const [k, e] of this.#entries) {
      if (this.#bytes <= this.maxBytes) break
      this.#entries.delete(k)
      this.#bytes -= e.size
    }
  }

  /** Every value, least recently used first, without touching their recency. */
  *values(): Generator<V> {
    for (const e of this.#entries.values()) yield e.value
  }

  clear(): void {
    this.#entries.clear()
    this.#bytes = 0
  }
}
