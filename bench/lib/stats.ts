/** Latency summary in milliseconds; percentiles by nearest rank on the sorted samples. */
export type Latency = { p50: number; p95: number; p99: number; mean: number; max: number }

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN
  const rank = Math.ceil((p / 100) * sorted.length) - 1
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank))] as number
}

export function summarise(samples: number[]): Latency {
  const sorted = [...samples].sort((a, b) => a - b)
  const mean = sorted.length ? sorted.reduce((a, b) => a + b, 0) / sorted.length : Number.NaN
  return {
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    mean,
    max: sorted[sorted.length - 1] ?? Number.NaN,
  }
}

/**
 * One load run: how many operations finished, how many failed, over how long, and their latencies;
 * `samples` (every latency) travels with it until runs are pooled, then is dropped.
 */
export type LoadResult = {
  requests: number
  errors: number
  seconds: number
  rps: number
  latency: Latency
  sent: number
  samples?: number[]
}

/** `sent`: requests started, which may exceed those answered in time when a run stops at its deadline. */
export function loadResult(
  samples: number[],
  errors: number,
  seconds: number,
  sent = samples.length + errors,
): LoadResult {
  return {
    requests: samples.length,
    errors,
    seconds,
    rps: samples.length / seconds,
    latency: summarise(samples),
    sent,
    samples,
  }
}

/** Several runs of one kind as one: latencies pooled, counts and time added. */
export function pool(runs: LoadResult[]): LoadResult {
  const merged = loadResult(
    runs.flatMap((r) => r.samples ?? []),
    runs.reduce((n, r) => n + r.errors, 0),
    runs.reduce((n, r) => n + r.seconds, 0),
    runs.reduce((n, r) => n + r.sent, 0),
  )
  delete merged.samples
  return merged
}

/** a / b, or null when either side is missing or b is zero. */
export function ratio(a: number | null | undefined, b: number | null | undefined): number | null {
  if (a == null || b == null || !Number.isFinite(a) || !Number.isFinite(b) || b === 0) return null
  return a / b
}
