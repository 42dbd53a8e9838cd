import type { Traffic } from '../http/traffic.ts'

/**
 * How the tile store's filler (store-fill.ts) shares the process and the database with the requests: it calls its
 * pace after each small step (a slice of tiles cut, one statement) with the milliseconds the step took, and goes on
 * when the pace resolves.
 */
export type Pace = (workedMs: number) => Promise<void>

export type Clock = { now(): number; sleep(ms: number): Promise<void> }

const realClock: Clock = {
  now: () => performance.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
}

/**
 * Rests after each step as long as it took, after letting the event loop serve what waits: at most half of a core
 * (on the embedded database, half of its one connection).
 */
export const halfShare: Pace = (workedMs) => realClock.sleep(Math.max(1, workedMs))

/**
 * A request answered within this long counts as traffic still going on: a client sends its next request within a
 * few milliseconds of an answer (the tiles of a map being panned, a lookup after its tiles).
 */
export const QUIET_MS = 25
/**
 * The filler's share of the time on a server that is never quiet: enough that its store is filled after all (in
 * about ten times as long as on an idle server), little enough that the requests keep their pace.
 */
export const BUSY_SHARE = 1 / 20

/**
 * Half a share (halfShare) on an idle server; on a busy one the filler steps aside: after its rest it waits on
 * while a request is being answered or one was answered in the last QUIET_MS, up to a rest of its step's time ×
 * (1 / BUSY_SHARE − 1), so its next step (the next statement on the embedded database's one connection) starts
 * when the requests have stopped, or else at BUSY_SHARE.
 */
export function givingWay(traffic: Traffic, clock: Clock = realClock): Pace {
  return async (workedMs) => {
    const worked = Math.max(1, workedMs)
    const start = clock.now()
    await clock.sleep(worked)
    const until = start + worked * (1 / BUSY_SHARE - 1)
    for (;;) {
      const now = clock.now()
      const quietFor = traffic.inFlight() > 0 ? 0 : now - traffic.lastAt()
      if (quietFor >= QUIET_MS || now >= until) return
      await clock.sleep(Math.min(QUIET_MS - quietFor, until - now))
    }
  }
}
