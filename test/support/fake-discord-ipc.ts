import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import type { Server, Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * A fake Discord client's local IPC server on a Unix socket (`<dir>/discord-ipc-0`), written from
 * discord-api-docs' RPC pages: each frame is two little-endian u32 (opcode, length) then JSON. Opcodes:
 * 0 handshake, 1 frame, 2 close, 3 ping, 4 pong. The handshake is answered with a `DISPATCH` `READY`
 * frame carrying the config and the user, as Discord does; commands are answered with their nonce.
 * Every frame received is kept in `frames`, in order.
 */
export interface DiscordFrame {
  op: number
  data: Record<string, unknown> | string | null
}

export const OP = { HANDSHAKE: 0, FRAME: 1, CLOSE: 2, PING: 3, PONG: 4 } as const

export function discordSocketDir(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'fake-discord-'))
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) }
}

function encode(op: number, data: unknown): Buffer {
  const body = Buffer.from(JSON.stringify(data))
  const head = Buffer.alloc(8)
  head.writeUInt32LE(op, 0)
  head.writeUInt32LE(body.length, 4)
  return Buffer.concat([head, body])
}

export async function startFakeDiscord(dir: string, pipe = 0) {
  const frames: DiscordFrame[] = []
  const sockets = new Set<Socket>()
  let connections = 0
  const server: Server = createServer((socket) => {
    connections++
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => undefined)
    let buffer = Buffer.alloc(0)
    socket.on('data', (chunk) => {
      buffer = Buffer.concat([buffer, chunk])
      while (buffer.length >= 8) {
        const op = buffer.readUInt32LE(0)
        const length = buffer.readUInt32LE(4)
        if (buffer.length < 8 + length) break
        const text = buffer.subarray(8, 8 + length).toString('utf8')
        buffer = buffer.subarray(8 + length)
        const data = text ? (JSON.parse(text) as DiscordFrame['data']) : null
        frames.push({ op, data })
        answer(socket, op, data)
      }
    })
  })

  function answer(socket: Socket, op: number, data: DiscordFrame['data']) {
    if (op === OP.HANDSHAKE) {
      socket.write(
        encode(OP.FRAME, {
          cmd: 'DISPATCH',
          evt: 'READY',
          data: {
            v: 1,
            config: {
              cdn_host: 'cdn.discordapp.com',
              api_endpoint: '//discord.com/api',
              environment: 'production',
            },
            user: {
              id: '1045800378228281345',
              username: 'fake',
              discriminator: '0',
              global_name: 'Fake',
              avatar: null,
              bot: false,
              flags: 0,
              premium_type: 0,
            },
          },
          nonce: null,
        }),
      )
    } else if (op === OP.PING) {
      socket.write(encode(OP.PONG, data))
    } else if (op === OP.CLOSE) {
      socket.end()
    } else if (op === OP.FRAME && data && typeof data === 'object') {
      const { cmd, nonce, args } = data as { cmd: string; nonce: string; args?: { activity?: unknown } }
      socket.write(encode(OP.FRAME, { cmd, evt: null, nonce, data: args?.activity ?? null }))
    }
  }

  const path = join(dir, `discord-ipc-${pipe}`)
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(path, () => resolve())
  })
  return {
    path,
    frames,
    /** Connections accepted so far. */
    connections: () => connections,
    /** The commands sent (op 1 frames), in order. */
    commands: () =>
      frames
        .filter((f) => f.op === OP.FRAME)
        .map((f) => f.data as { cmd: string; args: Record<string, unknown> }),
    /** Discord quits: every connection dropped, the socket removed. */
    async close() {
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
export type FakeDiscord = Awaited<ReturnType<typeof startFakeDiscord>>
