import { createServer, type ServerOptions } from 'node:http'
import type { AddressInfo } from 'node:net'
import { getRequestListener, RequestError, type ServerType } from '@hono/node-server'
import { malformedRequestAnswer, type SecurityConfig } from '../security/headers.ts'
import type { Traffic } from './traffic.ts'

export type Listening = { server: ServerType; port: number; close(): Promise<void> }

/**
 * Serves `fetch` on Node. @hono/node-server's own cleanup of unread request bodies is turned off: it
 * closes the socket of a client still sending after half a second, and settleBody (in the app) drains
 * or closes such connections without a reset instead. A request it cannot even turn into a Request (a
 * malformed Host) would get its bare 400; it gets the app's envelope and security headers instead.
 * `traffic` counts every request from its arrival until its answer has gone or its connection closed.
 */
export function listen(
  fetch: (req: Request, env: unknown) => Response | Promise<Response>,
  opts: { port: number; hostname: string; serverOptions?: ServerOptions; config: SecurityConfig; traffic?: Traffic },
): Promise<Listening> {
  const malformed = malformedRequestAnswer(opts.config)
  const listener = getRequestListener(fetch, {
    hostname: opts.hostname,
    autoCleanupIncoming: false,
    // The app answers every error it meets itself; only a request that never reached it comes here.
    errorHandler: (err) => (err instanceof RequestError ? malformed() : new Response(null, { status: 500 })),
  })
  const { traffic } = opts
  const server = createServer(
    opts.serverOptions ?? {},
    traffic
      ? (req, res) => {
          res.once('close', traffic.begin())
          return listener(req, res)
        }
      : listener,
  )
  return new Promise((resolve) => {
    server.listen(opts.port, opts.hostname, () =>
      resolve({
        server,
        port: (server.address() as AddressInfo).port,
        close: () => new Promise<void>((done) => server.close(() => done())),
      }),
    )
  })
}
