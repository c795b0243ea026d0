import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Core } from '@main/core'
import { PROBE_FIRST_MS, PROBE_MAX_MS } from '@main/core/offline/monitor'
import { startDataSource } from '@server/index'
import type { DataSourceHandle } from '@server/index'
import type { IpcResult, OfflineState } from '@shared/ipc/contract'
import { createTestCore, TRUSTED } from '../support/test-core'
import { OWNER_PASSPHRASE } from '../support/phone'
import { manualTimers } from '../support/manual-timers'

/**
 * Back online at once: after a long outage the probe waits up to a minute between tries; the window's
 * focus, the network coming back and "Try again" each ask the data source at once, so one probe brings
 * the app back. The real core against the reference server, stopped and started on the same port; the
 * core's timers fire only by hand, so nothing but the poke can ask.
 */

const settle = () => new Promise((resolve) => setTimeout(resolve, 20))

describe('offline mode: asked again at once', () => {
  let dataDir: string
  let server: DataSourceHandle
  let port: number
  let core: Core
  const timers = manualTimers()
  const offlineEvents: OfflineState[] = []
  /** The monitor's probes that reached the data source (each asks its sign-in status). */
  let probes = 0

  const start = async () => {
    server = await startDataSource({ ownerPassphrase: OWNER_PASSPHRASE, dataDir, port, demo: 20 })
  }
  /** The server stops; a call fails, offline mode begins; the probes back off to their longest wait. */
  const outage = async () => {
    await server.close()
    await core.router.invoke('catalog:recommend-songs', { limit: 3 }, TRUSTED)
    await expect.poll(() => core.offline.monitor.isOffline()).toBe(true)
    const reached = probes
    for (let delay = PROBE_FIRST_MS; delay < PROBE_MAX_MS; delay *= 2) {
      timers.fire(delay)
      await expect.poll(() => timers.delays()).toContain(Math.min(delay * 2, PROBE_MAX_MS))
    }
    expect(probes).toBe(reached)
    expect(core.offline.monitor.isOffline()).toBe(true)
  }

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'cadence-recheck-src-'))
    port = 0
    await start()
    port = Number(new URL(server.url).port)
    core = createTestCore({
      builtinSourceUrl: server.url,
      builtinPassphrase: OWNER_PASSPHRASE,
      timeoutMs: 3000,
      timers,
      fetch: async (input, init) => {
        const url = String(input instanceof Request ? input.url : input)
        const answer = await fetch(input, init)
        if (new URL(url).pathname === '/connect/status') probes++
        return answer
      },
    })
    core.events.subscribe((event, payload) => {
      if (event === 'offline:changed') offlineEvents.push(payload as OfflineState)
    })
    await core.start()
  })
  afterAll(async () => {
    core?.dispose()
    await server?.close()
    await rm(dataDir, { recursive: true, force: true })
  })

  it('comes back with one probe when the window gets focus, not a minute later', async () => {
    await outage()
    await start()
    const before = probes
    await settle()
    expect(probes).toBe(before)
    expect(core.offline.monitor.isOffline()).toBe(true)

    expect(await core.windowFocused()).toBe(true)
    expect(probes).toBe(before + 1)
    expect(core.offline.monitor.isOffline()).toBe(false)
    expect(offlineEvents.at(-1)).toEqual({ offline: false })
    // Online: nothing more is scheduled, and a focus asks nothing.
    expect(timers.delays()).not.toContain(PROBE_MAX_MS)
    expect(await core.windowFocused()).toBe(true)
    expect(probes).toBe(before + 1)
  })

  it('comes back with one probe on offline:check (the network is back, "Try again")', async () => {
    await outage()
    // Still away: the check asks once, says offline, and the back-off starts afresh.
    const away = (await core.router.invoke('offline:check', undefined, TRUSTED)) as IpcResult<OfflineState>
    expect(away).toMatchObject({ ok: true, value: { offline: true } })
    expect(timers.delays()).toContain(PROBE_FIRST_MS)
    expect(timers.delays()).not.toContain(PROBE_MAX_MS)

    await start()
    const before = probes
    const back = (await core.router.invoke('offline:check', undefined, TRUSTED)) as IpcResult<OfflineState>
    expect(back).toEqual({ ok: true, value: { offline: false } })
    expect(probes).toBe(before + 1)
    expect(offlineEvents.map((e) => e.offline)).toEqual([true, false, true, false])
  })
})
