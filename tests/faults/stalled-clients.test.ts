import { connect, type Socket } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { removeTempDirs, startServer, tempDir, type ServerProc } from './process.ts'

// Short request timeout so the test waits seconds, not minutes; production keeps the 120 s default.
let server: ServerProc
beforeAll(async () => {
  server = await startServer({
    dataDir: tempDir('qh-fault-'),
    env: { DEMO_DATA: 'false', REQUEST_TIMEOUT_SECONDS: '3' },
  })
})
afterAll(async () => {
  await server?.stop()
  removeTempDirs()
})

type Stalled = { socket: Socket; received: () => string; closed: Promise<void> }

/** Opens a raw connection, writes `data` and then nothing more. */
function stall(data: string): Promise<Stalled> {
  return new Promise((resolveOpen, reject) => {
    let received = ''
    const socket = connect(server.port, '127.0.0.1', () => {
      socket.write(data)
      resolveOpen({ socket, received: () => received, closed })
    })
    const closed = new Promise<void>((r) => socket.once('close', () => r()))
    socket.on('data', (d: Buffer) => (received += d.toString()))
    socket.on('error', () => {})
    socket.once('error', reject)
  })
}

const health = () => fetch(`${server.url}/api/health`).then((r) => r.status)

describe('slow and stalled clients', () => {
  it('closes connections that never finish their headers, never send a byte, or stall their body, while serving others', async () => {
    const stalled = await Promise.all([
      ...Array.from({ length: 20 }, () => stall('GET /api/health HTTP/1.1\r\nHost: x\r\nX-Slow: ')),
      ...Array.from({ length: 20 }, () => stall('')),
      ...Array.from({ length: 20 }, () =>
        stall(
          'POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"email":"a',
        ),
      ),
      stall(
        'POST /api/uploads HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: 5000000\r\n\r\n--b\r\n',
      ),
    ])
    // 61 hanging sockets do not stop anybody else.
    expect(await health()).toBe(200)
    await Promise.all(stalled.map((s) => s.closed))
    // Those that got an answer were told why in HTTP terms (408) or in the envelope, never a 5xx.
    for (const s of stalled) expect(s.received()).not.toMatch(/^HTTP\/1\.1 5\d\d/)
    expect(await health()).toBe(200)
  })

  it('closes an idle keep-alive connection after its answer', async () => {
    const s = await stall('GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n')
    await s.closed
    expect(s.received()).toMatch(/^HTTP\/1\.1 200 OK/)
  })

  it('answers a request with huge headers 431 and keeps serving', async () => {
    const res = await fetch(`${server.url}/api/health`, { headers: { 'x-huge': 'x'.repeat(64 * 1024) } })
    expect(res.status).toBe(431)
    const many = await fetch(`${server.url}/api/health`, {
      headers: Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`x-h-${i}`, 'y'])),
    })
    expect(many.status).toBe(431)
    expect(await health()).toBe(200)
  })
})
