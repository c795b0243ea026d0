import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { superviseDataSource } from '@main/core/sources/supervisor'
import type { RunningProcess } from '@main/core/sources/supervisor'
import { realTimers } from '@main/core/ports'
import { silentLogger } from '@main/core/log'
import { startDataSource } from '@server/index'
import type { DataSourceHandle } from '@server/index'
import type { DataSourceState, SourceList } from '@shared/ipc/contract'
import { createTestCore, TRUSTED } from '../support/test-core'
import { OWNER_PASSPHRASE } from '../support/phone'

/**
 * Issue #7: the built-in data source's process dies; main restarts it and the app recovers by itself.
 * The process itself is Electron glue (`utilityProcess`, electron/main/glue/data-source.ts) and cannot run
 * here, so the reference server runs in-process in its place, wired exactly as electron/main/index.ts wires
 * it: `superviseDataSource({ start, onState: core.setBuiltin })`. "Dies" = the server closes and the
 * starter reports the exit, as the utility process's `exit` event does.
 */

describe('the built-in data source dies and comes back', () => {
  let dataDir: string
  let current: DataSourceHandle | undefined
  let exit: ((code: number) => void) | undefined
  let failStarts = 0
  const starts: string[] = []

  const core = createTestCore({
    builtinPassphrase: OWNER_PASSPHRASE,
    timeoutMs: 3000,
  })
  const states: DataSourceState[] = []
  const stopListening = core.events.subscribe((event, payload) => {
    if (event !== 'sources:changed') return
    const builtin = (payload as SourceList).sources.find((s) => s.builtin)
    if (builtin?.state && states.at(-1) !== builtin.state) states.push(builtin.state)
  })

  const supervisor = superviseDataSource({
    start: async (onExit): Promise<RunningProcess> => {
      if (failStarts > 0) {
        failStarts--
        throw new Error('the process could not start')
      }
      const handle = await startDataSource({ ownerPassphrase: OWNER_PASSPHRASE, dataDir, port: 0, demo: 40 })
      current = handle
      exit = onExit
      starts.push(handle.url)
      return { url: handle.url, stop: () => handle.close() }
    },
    onState: (url, state) => core.setBuiltin(url, state),
    timers: realTimers,
    log: silentLogger('supervisor'),
    baseDelayMs: 20,
    maxDelayMs: 100,
    maxRestarts: 6,
  })

  /** The process dies: its port closes, then the exit is reported. */
  async function die() {
    await current!.close()
    exit!(1)
  }

  const recommend = () => core.router.invoke('catalog:recommend-playlists', { limit: 3 }, TRUSTED)

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'cadence-restart-'))
    await supervisor.start()
    await core.start()
  })
  afterAll(async () => {
    stopListening()
    await supervisor.stop()
    core.dispose()
    await rm(dataDir, { recursive: true, force: true })
  })

  it('serves the catalogue once started', async () => {
    expect(await recommend()).toMatchObject({ ok: true, value: [{}, {}, {}] })
    expect(states.at(-1)).toBe('ready')
  })

  it('restarts the process on a new port, and the next call works with no action from the user', async () => {
    const before = starts.length
    core.api().clearCache()
    await die()
    expect(states.at(-1)).toBe('reconnecting')
    // While it is down, calls fail with a typed error, never a crash.
    const during = await recommend()
    if (!during.ok) expect(['network', 'unavailable', 'timeout']).toContain(during.error.kind)

    await expect.poll(() => starts.length, { timeout: 10_000 }).toBe(before + 1)
    await expect.poll(() => states.at(-1)).toBe('ready')
    expect(starts.at(-1)).not.toBe(starts[before - 1])
    const after = await recommend()
    expect(after).toMatchObject({ ok: true, value: [{}, {}, {}] })
    // Still signed in: the credential lives in the server's data folder, which survived.
    await expect
      .poll(
        async () =>
          (
            (await core.router.invoke('auth:status', undefined, TRUSTED)) as {
              ok: boolean
              value?: { status: string }
            }
          ).value?.status,
      )
      .toBe('signed-in')
  })

  it('retries a start that fails, with a growing delay', async () => {
    const before = starts.length
    failStarts = 2
    await die()
    await expect.poll(() => starts.length, { timeout: 10_000 }).toBe(before + 1)
    expect(states.at(-1)).toBe('ready')
    expect(await recommend()).toMatchObject({ ok: true })
  })

  it('gives up after too many restarts in the window and says so; a manual restart brings it back', async () => {
    failStarts = 100
    await die()
    await expect.poll(() => states.at(-1), { timeout: 10_000 }).toBe('failed')
    // The dead process's address is forgotten: there is no client to ask (nor a cache to clear).
    expect(core.sources.get('builtin')?.url).toBe('')
    const down = await recommend()
    expect(down).toMatchObject({ ok: false })
    failStarts = 0
    supervisor.restart()
    await expect.poll(() => states.at(-1), { timeout: 10_000 }).toBe('ready')
    core.api().clearCache()
    expect(await recommend()).toMatchObject({ ok: true })
  })
})
