import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDataSource } from '@server/index'
import type { DataSourceHandle } from '@server/index'
import type { Song } from '@shared/api/models'
import type { OfflineState } from '@shared/ipc/contract'
import { startApp } from './harness'
import type { App } from './harness'
import { findSongs, playable, playSongs, title, waitForClock } from './playback-support'
import { OWNER_PASSPHRASE } from '../support/phone'
import { startHostileSource } from '../support/hostile-slow-source'
import type { HostileSource } from '../support/hostile-slow-source'

/**
 * Issue 33, item 5, in the real renderer: the first song of the queue has a `/song/detail` that the data
 * source trickles for 60 s. Main gives up after its 10 s; the player skips that one song, says why once,
 * and plays the next; the app never says it is offline.
 */

describe('one slow answer from the data source', () => {
  let server: DataSourceHandle
  let dataDir: string
  let hostile: HostileSource
  let app: App
  let songs: Song[]

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'cadence-e2e-hostile-slow-'))
    server = await startDataSource({ ownerPassphrase: OWNER_PASSPHRASE, dataDir, port: 0, demo: 40 })
    hostile = await startHostileSource(server.url)
    app = await startApp({ sourceUrl: hostile.url })
    songs = await findSongs(app, 3, playable)
  })
  afterAll(async () => {
    await app?.close()
    await hostile?.close()
    await server?.close()
    await rm(dataDir, { recursive: true, force: true })
  })

  it('skips the slow song alone, says why once, and plays the next one; the app stays online', async () => {
    const { page } = app
    hostile.trickle.add(String(songs[0]!.id))
    // Every notice the player shows, in order (a skipped one goes away after 10 s).
    await page.evaluate(() => {
      const root = document.querySelector('#app') as unknown as {
        __vue_app__: { config: { globalProperties: { $pinia: { _s: Map<string, unknown> } } } }
      }
      const player = root.__vue_app__.config.globalProperties.$pinia._s.get('player') as {
        $subscribe(listener: (mutation: unknown, state: { notice: unknown }) => void): void
      }
      const seen: string[] = []
      ;(window as unknown as { notices: string[] }).notices = seen
      let last: unknown = null
      player.$subscribe((_, state) => {
        if (state.notice && state.notice !== last) seen.push(JSON.stringify(state.notice))
        last = state.notice
      })
    })

    await playSongs(page, songs)
    await waitForClock(page, 0.3, 45_000)
    await expect.poll(() => title(page), { timeout: 10_000 }).toBe(songs[1]!.name)
    const notices = (await page.evaluate(() => (window as unknown as { notices: string[] }).notices)).map(
      (text) => JSON.parse(text) as { type: string; song?: string; reason?: string },
    )
    expect(notices).toEqual([
      {
        type: 'skipped',
        song: songs[0]!.name,
        cause: 'error',
        reason: 'The data source did not finish its answer within 10 s',
      },
    ])
    expect(hostile.trickled()).toBeGreaterThan(19)
    await expect.poll(() => page.getByTestId('offline-banner').count(), { timeout: 10_000 }).toBe(0)
    const state = await page.evaluate(() => window.cadence.invoke('offline:state'))
    expect(state as OfflineState).toEqual({ offline: false })
    await app.screenshot('hostile-slow-skipped')
  })
})
