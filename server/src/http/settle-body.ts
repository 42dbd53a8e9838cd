import type { IncomingMessage } from 'node:http'
import type { Socket } from 'node:net'
import type { Context, MiddlewareHandler } from 'hono'

export type SettleOptions = {
  /** A remainder up to this many bytes (declared by Content-Length) is read and dropped, keeping the connection. */
  drainMaxBytes: number
  /** After a `Connection: close` answer, how long the server keeps reading before it closes for good. */
  lingerMs: number
}

type NodeBindings = { incoming?: IncomingMessage }

const incomingOf = (c: Context) => (c.env as NodeBindings | undefined)?.incoming

/**
 * Every refusal must reach the client as an answer, even when it comes before the client has sent its
 * whole body (a photo refused for its type, size or count, a missing token, an oversized JSON body, a
 * slow upload). Closing a socket that still holds unread bytes makes the kernel send a reset, which
 * can destroy the answer on its way and leaves the client with a network error it retries forever.
 *
 * So, after the answer is made: a remainder the client declared and that is small enough is read and
 * dropped, and the keep-alive connection serves the next request. Anything else (no length, too long,
 * or an answer that asked for `Connection: close`, like a stalled upload) is answered with
 * `Connection: close`, the server half-closes once the whole answer is sent and keeps dropping what
 * still arrives for `lingerMs` before it lets go (the "lingering close" of Apache and nginx).
 *
 * Needs the server started with @hono/node-server's `autoCleanupIncoming: false` (see `listen`), whose
 * own cleanup would close a slow client's socket after half a second. Requests made in tests with
 * app.request have no socket and pass through.
 */
export function settleBody(opts: SettleOptions): MiddlewareHandler {
  return async (c, next) => {
    await next()
    const incoming = incomingOf(c)
    // `complete`: the whole request has arrived (at once for a GET, which has no body), so nothing is
    // still being sent; what the handler left unread is dropped by Node after the answer. Only
    // `readableEnded` here would answer every GET with `Connection: close`: nobody reads a GET's empty
    // body, so its end is never emitted.
    if (!incoming || incoming.complete || incoming.readableEnded || incoming.destroyed) return
    const declared = Number(incoming.headers['content-length'])
    const chunked = incoming.headers['transfer-encoding'] !== undefined
    const asksClose = c.res.headers.get('connection')?.toLowerCase() === 'close'
    if (!asksClose && !chunked && Number.isSafeInteger(declared) && declared <= opts.drainMaxBytes) {
      // The parser hands over no more than the declared length: the drain is bounded by it.
      dropRest(incoming)
      return
    }
    setConnectionClose(c)
    dropRest(incoming)
    // Node ends a `Connection: close` answer with socket.destroySoon(): closing at once, with the
    // client's bytes still arriving. This socket lingers instead.
    const socket = incoming.socket as Socket & { destroySoon?: () => void }
    socket.destroySoon = () => lingerThenClose(socket, opts.lingerMs)
  }
}

function setConnectionClose(c: Context) {
  try {
    c.res.headers.set('Connection', 'close')
  } catch {
    // Immutable headers (a fetched response): hono copies them onto a new response.
    c.res = new Response(c.res.body, c.res)
    c.res.headers.set('Connection', 'close')
  }
}

/**
 * Reads whatever is left of the body and drops it. A web stream made from the request (the handler's
 * reader, now abandoned) would queue every chunk it is handed, so its listener goes first.
 */
function dropRest(incoming: IncomingMessage) {
  incoming.removeAllListeners('data')
  incoming.removeAllListeners('readable')
  incoming.on('data', () => {})
  incoming.on('error', () => {})
  incoming.resume()
}

/** Half-closes (the answer is complete), keeps reading for `lingerMs`, then lets the socket go. */
function lingerThenClose(socket: Socket, lingerMs: number) {
  if (socket.destroyed) return
  socket.end()
  const timer = setTimeout(() => socket.destroy(), lingerMs)
  timer.unref()
  socket.once('close', () => clearTimeout(timer))
}
