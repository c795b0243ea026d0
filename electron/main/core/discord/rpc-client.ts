import { join } from 'node:path'
import type { DiscordConnect } from './presence'

type Timer = Parameters<typeof clearTimeout>[0]
interface TransportInternals {
  socket?: { on(event: 'error' | 'close', listener: () => void): unknown }
  heartbeatTimer?: Timer
  timeoutTimer?: Timer
}

/**
 * What the library (1.5.1) leaves out once connected: it listens for socket errors only while connecting,
 * so Discord quitting (ECONNRESET) would be an uncaught exception in main; and its close handler returns
 * early once the socket is no longer open, so a dropped connection is never reported and its heartbeat
 * keeps running. Here the socket's close stops the heartbeat and reports the loss.
 */
function watchSocket(transport: unknown, lost: () => void) {
  const t = transport as TransportInternals
  t.socket?.on('error', () => undefined)
  t.socket?.on('close', () => {
    clearInterval(t.heartbeatTimer)
    clearTimeout(t.timeoutTimer)
    lost()
  })
}

/**
 * The Discord client through `@xhayper/discord-rpc` (loaded on the first connection, so the app starts
 * without it): a new client per try, since one whose connection failed stays failed. The library finds
 * the socket itself (`$XDG_RUNTIME_DIR`, `$TMPDIR`, `$TMP`, `$TEMP` or `/tmp`, then `discord-ipc-0`…`9`,
 * also inside snap and flatpak folders; Windows' named pipes); `socketDir` puts it in one folder (tests).
 */
export function rpcConnect(options: { socketDir?: string } = {}): DiscordConnect {
  return async (appId, onClose) => {
    const { Client } = await import('@xhayper/discord-rpc')
    const dir = options.socketDir
    const client = new Client({
      clientId: appId,
      transport: {
        type: 'ipc',
        ...(dir
          ? {
              pathList: [
                { platform: [process.platform], format: (id: number) => join(dir, `discord-ipc-${id}`) },
              ],
            }
          : {}),
      },
    })
    let closed = false
    const lost = () => {
      if (closed) return
      closed = true
      onClose()
    }
    client.on('disconnected', lost)
    try {
      await client.login()
      watchSocket(client.transport, lost)
    } catch (error) {
      closed = true
      await client.destroy().catch(() => undefined)
      throw error
    }
    const user = () => {
      if (!client.user) throw new Error('Discord sent no user')
      return client.user
    }
    return {
      setActivity: async (activity) => void (await user().setActivity(activity)),
      clearActivity: () => user().clearActivity(),
      close: async () => {
        closed = true
        await client.destroy()
      },
    }
  }
}
