import type { ServerOptions } from 'node:http'
import type { AddressInfo } from 'node:net'
import { serve, type ServerType } from '@hono/node-server'

export type Listening = { server: ServerType; port: number; close(): Promise<void> }

/**
 * Serves `fetch` on Node. @hono/node-server's own cleanup of unread request bodies is turned off: it
 * closes the socket of a client still sending after half a second, and settleBody (in the app) drains
 * or closes such connections without a reset instead.
 */
export function listen(
  fetch: (req: Request, env: unknown) => Response | Promise<Response>,
  opts: { port: number; hostname: string; serverOptions?: ServerOptions },
): Promise<Listening> {
  return new Promise((resolve) => {
    const server: ServerType = serve(
      {
        fetch,
        port: opts.port,
        hostname: opts.hostname,
        serverOptions: opts.serverOptions,
        autoCleanupIncoming: false,
      },
      (info: AddressInfo) =>
        resolve({ server, port: info.port, close: () => new Promise<void>((done) => server.close(() => done())) }),
    )
  })
}
