// The part of autocannon's API the benchmark uses (the package ships no types).
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events'

  type Request = { method?: string; path?: string; headers?: Record<string, string>; body?: string }
  type Client = EventEmitter & { setHeaders(headers: Record<string, string>): void }
  type Options = {
    url: string
    connections?: number
    duration?: number
    amount?: number
    timeout?: number
    headers?: Record<string, string>
    requests?: { setupRequest?: (req: Request, context: Record<string, unknown>) => Request }[]
    setupClient?: (client: Client) => void
  }
  type Histogram = { average: number; p50: number; p90: number; p99: number; max: number }
  type Result = {
    requests: Histogram & { total: number; sent: number }
    latency: Histogram
    duration: number
    errors: number
    timeouts: number
    non2xx: number
  }
  type Instance = EventEmitter & Promise<Result> & { stop(): void }
  function autocannon(opts: Options): Instance
  export default autocannon
}
