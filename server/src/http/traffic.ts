/**
 * The requests this process is answering, counted from the moment Node hands one over (listen.ts) until its
 * answer is sent or its connection closes, so work done in the background (the tile store's filler) can give way
 * to them. A process sees only its own requests.
 */
export type Traffic = {
  /** Requests begun and not yet answered. */
  inFlight(): number
  /** When a request last began or ended (the clock's time), -Infinity before the first. */
  lastAt(): number
  /** A request has begun; the function returned says it has ended (the first call counts, later ones do nothing). */
  begin(): () => void
}

export function createTraffic(now: () => number = () => performance.now()): Traffic {
  let inFlight = 0
  let lastAt = -Infinity
  return {
    inFlight: () => inFlight,
    lastAt: () => lastAt,
    begin() {
      inFlight++
      lastAt = now()
      let ended = false
      return () => {
        if (ended) return
        ended = true
        inFlight--
        lastAt = now()
      }
    },
  }
}
