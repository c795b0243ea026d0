import { afterEach, describe, expect, it } from 'vitest'
import { createCore, createMemoryStore } from '@main/core'
import { PAUSE_GRACE_MS, RECONNECT_DELAYS_MS, rpcConnect } from '@main/core/discord'
import type { EventMap, EventName, InvokeChannel, IpcResult } from '@shared/ipc/contract'
import type { NowPlayingReport } from '@shared/ipc/discord-lrclib'
import { createTestCipher } from '../support/test-cipher'
import { manualTimers } from '../support/manual-timers'
import { discordSocketDir, OP, startFakeDiscord } from '../support/fake-discord-ipc'
import type { FakeDiscord } from '../support/fake-discord-ipc'

/**
 * Discord Rich Presence through the real core and the real `@xhayper/discord-rpc` client, against a fake
 * Discord IPC server on a Unix socket: the exact frames (handshake, `SET_ACTIVITY`), clearing on pause and
 * on a private session, nothing while off, reconnecting when Discord starts later.
 */

const APP = 'app://cadence/index.html'
const APP_ID = '1234567890123456789'
const NOW = 1_800_000_000_000
const cleanups: Array<() => unknown> = []
afterEach(async () => {
  for (const step of cleanups.splice(0).reverse()) await step()
})

const playing = (
  over: Partial<NonNullable<NowPlayingReport['song']>> = {},
  playing = true,
): NowPlayingReport => ({
  playing,
  song: {
    id: 7,
    name: 'Blue Hour',
    artists: 'Mira Vale, Ode',
    album: 'Evening Songs',
    cover: 'https://p1.music.example.com/covers/7.jpg',
    ...over,
  },
  positionMs: 30_000,
  durationMs: 200_000,
})

function setup(socketDir: string) {
  const timers = manualTimers()
  const core = createCore({
    store: createMemoryStore(),
    cipher: createTestCipher(),
    isTrustedSender: (url) => url.startsWith('app://cadence/'),
    appInfo: { name: 'Cadence', version: '1.2.3', platform: 'linux' },
    now: () => NOW,
    discord: { appId: APP_ID, connect: rpcConnect({ socketDir }), timers },
  })
  cleanups.push(() => core.dispose())
  const events: Array<[EventName, unknown]> = []
  core.events.subscribe((event, payload) => events.push([event, payload]))
  const value = async (channel: InvokeChannel, args?: unknown) => {
    const result = (await core.router.invoke(channel, args, { senderUrl: APP })) as IpcResult
    if (!result.ok) throw new Error(`${channel}: ${result.error.kind} ${result.error.message}`)
    return result.value as never
  }
  const statuses = () =>
    events.filter(([e]) => e === 'discord:changed').map(([, p]) => p as EventMap['discord:changed'])
  return { core, timers, value, statuses }
}

async function fake(dir: string): Promise<FakeDiscord> {
  const server = await startFakeDiscord(dir)
  cleanups.push(() => server.close())
  return server
}
const activities = (server: FakeDiscord) => server.commands().filter((c) => c.cmd === 'SET_ACTIVITY')

describe('Discord Rich Presence against a fake Discord IPC socket', () => {
  it('sends nothing while off, then the handshake and "Listening to" with the song once turned on', async () => {
    const { dir, remove } = discordSocketDir()
    cleanups.push(remove)
    const server = await fake(dir)
    const { value, statuses } = setup(dir)

    await value('presence:report', playing())
    expect(await value('discord:status')).toBe('off')
    expect(statuses()).not.toContain('connecting')
    expect(server.connections()).toBe(0)

    await value('settings:update', { discordPresence: true })
    await expect.poll(() => activities(server).length, { timeout: 20_000 }).toBe(1)
    expect(server.frames[0]).toEqual({ op: OP.HANDSHAKE, data: { v: 1, client_id: APP_ID } })
    const set = activities(server)[0]!
    expect(set.args.pid).toBe(process.pid)
    expect(set.args.activity).toMatchObject({
      type: 2,
      name: 'Cadence',
      details: 'Blue Hour',
      state: 'Mira Vale, Ode',
      assets: { large_image: 'https://p1.music.example.com/covers/7.jpg', large_text: 'Evening Songs' },
      timestamps: { start: NOW - 30_000, end: NOW - 30_000 + 200_000 },
    })
    expect(await value('discord:status')).toBe('connected')
  })

  it('clears the activity after a pause (past the grace) and during a private session', async () => {
    const { dir, remove } = discordSocketDir()
    cleanups.push(remove)
    const server = await fake(dir)
    const { value, timers } = setup(dir)
    await value('settings:update', { discordPresence: true })
    await value('presence:report', playing())
    await expect.poll(() => activities(server).length, { timeout: 20_000 }).toBe(1)

    await value('presence:report', playing({}, false))
    // Within the grace, nothing changes; past it, the activity goes.
    expect(timers.delays()).toContain(PAUSE_GRACE_MS)
    timers.fire(PAUSE_GRACE_MS)
    await expect.poll(() => activities(server).length, { timeout: 20_000 }).toBe(2)
    expect(activities(server)[1]!.args).toEqual({ pid: process.pid })

    await value('presence:report', playing())
    await expect.poll(() => activities(server).length, { timeout: 20_000 }).toBe(3)
    expect(activities(server)[2]!.args.activity).toMatchObject({ type: 2, details: 'Blue Hour' })

    await value('history:set-private', { on: true })
    await expect.poll(() => activities(server).length, { timeout: 20_000 }).toBe(4)
    expect(activities(server)[3]!.args).toEqual({ pid: process.pid })
    expect(await value('discord:status')).toBe('paused')
    // Songs reported during the private session are not shown.
    await value('presence:report', playing({ id: 8, name: 'Other Song' }))
    await value('history:set-private', { on: false })
    await expect.poll(() => activities(server).length, { timeout: 20_000 }).toBe(5)
    expect(activities(server)[4]!.args.activity).toMatchObject({ details: 'Other Song' })
  })

  it('never sends a cover that is not a public https address', async () => {
    const { dir, remove } = discordSocketDir()
    cleanups.push(remove)
    const server = await fake(dir)
    const { value } = setup(dir)
    await value('settings:update', { discordPresence: true })
    const covers = [
      'http://127.0.0.1:4000/covers/7.jpg',
      'https://127.0.0.1/covers/7.jpg',
      'https://localhost/covers/7.jpg',
      'https://192.168.1.20/covers/7.jpg',
      'https://[::1]/covers/7.jpg',
      'cadence-media://cover/7',
      'http://p1.music.example.com/covers/7.jpg',
    ]
    for (const [i, cover] of covers.entries()) {
      await value('presence:report', playing({ id: i, name: `Song ${i}`, cover }))
      await expect.poll(() => activities(server).length, { timeout: 20_000 }).toBe(i + 1)
      const activity = activities(server)[i]!.args.activity as {
        details: string
        assets?: Record<string, string>
      }
      expect(activity.details).toBe(`Song ${i}`)
      expect(activity.assets).toEqual({ large_text: 'Evening Songs' })
    }
  })

  it('is silent while Discord is not running and connects when it starts later, and again after it quits', async () => {
    const { dir, remove } = discordSocketDir()
    cleanups.push(remove)
    const { value, timers, statuses } = setup(dir)
    await value('settings:update', { discordPresence: true })
    await value('presence:report', playing())
    await expect.poll(() => statuses().at(-1), { timeout: 20_000 }).toBe('not-running')
    await expect.poll(() => timers.delays(), { timeout: 20_000 }).toContain(RECONNECT_DELAYS_MS[0])

    // Discord starts: the next try connects and shows the song.
    const server = await startFakeDiscord(dir)
    timers.fire(RECONNECT_DELAYS_MS[0])
    await expect.poll(() => activities(server).length, { timeout: 20_000 }).toBe(1)
    expect(server.frames[0]).toEqual({ op: OP.HANDSHAKE, data: { v: 1, client_id: APP_ID } })
    expect(await value('discord:status')).toBe('connected')

    // Discord quits, and starts again: connected anew, the song shown again.
    await server.close()
    await expect.poll(() => statuses().at(-1), { timeout: 20_000 }).toBe('not-running')
    await expect.poll(() => timers.delays(), { timeout: 20_000 }).toContain(RECONNECT_DELAYS_MS[0])
    const again = await fake(dir)
    timers.fire(RECONNECT_DELAYS_MS[0])
    await expect.poll(() => activities(again).length, { timeout: 20_000 }).toBe(1)
    expect(again.frames[0]).toEqual({ op: OP.HANDSHAKE, data: { v: 1, client_id: APP_ID } })
    expect(activities(again)[0]!.args.activity).toMatchObject({ details: 'Blue Hour' })
  })

  it('backs off between tries, up to a bound', async () => {
    const { dir, remove } = discordSocketDir()
    cleanups.push(remove)
    const { value, timers } = setup(dir)
    await value('settings:update', { discordPresence: true })
    const seen: number[] = []
    for (let i = 0; i < RECONNECT_DELAYS_MS.length + 2; i++) {
      const delay = RECONNECT_DELAYS_MS[Math.min(i, RECONNECT_DELAYS_MS.length - 1)]!
      await expect.poll(() => timers.delays(), { timeout: 20_000 }).toContain(delay)
      seen.push(delay)
      timers.fire(delay)
    }
    expect(seen).toEqual([...RECONNECT_DELAYS_MS, 300_000, 300_000])
    expect(await value('discord:status')).not.toBe('connected')
  })
})
