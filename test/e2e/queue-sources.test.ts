import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Song } from '@shared/api/models'
import { startApp } from './harness'
import type { App } from './harness'
import { playSongs, seekWithSlider, waitForClock } from './playback-support'
import {
  activateInSettings,
  addSource,
  addToQueue,
  sourceSongs,
  startQuirkServer,
  textOf,
} from './sources-support'

/**
 * Issue 36, one queue across sources: a queue that mixes a song of the built-in source and a song of a
 * NeteaseMusicAdapter-like server (a quirk proxy) plays both in order, each from its own source, names
 * where each comes from, and survives a switch of the active source and a restart of the app.
 */

const DEMO = 20

describe('One queue across data sources', () => {
  let app: App
  let quirk: Awaited<ReturnType<typeof startQuirkServer>>
  let quirkId = ''
  let quirkName = ''
  let builtinName = ''
  let builtinSong: Song
  let quirkSong: Song

  beforeAll(async () => {
    quirk = await startQuirkServer('queue-sources')
    app = await startApp({ demo: DEMO })
    const added = await addSource(app, quirk.url)
    quirkId = added.id
    quirkName = added.name
    builtinName = added.builtinName
    ;[builtinSong] = await sourceSongs(app, added.activeId, 1)
    // Another song than the built-in one (the two demo catalogues are alike): told apart by name.
    quirkSong = (await sourceSongs(app, quirkId, 3)).find((song) => song.name !== builtinSong.name)!
  }, 120_000)
  afterAll(async () => {
    await app?.close()
    await quirk?.close()
  })

  const titleOf = (page: Page) => page.getByTestId('player-title')

  it('queues songs of two sources, keeps them through a switch, and plays both in order', async () => {
    const { page } = app
    // A song of the built-in source, queued while it is active.
    await playSongs(page, [builtinSong])
    await expect.poll(() => textOf(titleOf(page)), { timeout: 30_000 }).toBe(builtinSong.name)
    await page.getByTestId('player-toggle').click()

    // The other source made active: the queue stays; a song of it is added.
    await activateInSettings(page, quirk.url)
    await expect.poll(() => textOf(titleOf(page)), { timeout: 15_000 }).toBe(builtinSong.name)
    await addToQueue(page, [quirkSong])
    // Back to the built-in source: both stay, each named with its source.
    await activateInSettings(page, undefined)
    await page.getByTestId('player-queue').click()
    const labels = page.getByTestId('queue-panel').getByTestId('queue-source')
    await expect.poll(() => labels.allInnerTexts(), { timeout: 15_000 }).toEqual([builtinName, quirkName])
    await page.getByTestId('player-queue').click()

    // Plays the built-in song, then (at its end) the other source's.
    await page.getByTestId('player-toggle').click()
    await waitForClock(page, 0.5, 30_000)
    await seekWithSlider(page, builtinSong.duration! - 2500)
    await expect.poll(() => textOf(titleOf(page)), { timeout: 30_000 }).toBe(quirkSong.name)
    await waitForClock(page, 1, 30_000)
    expect(app.mediaRequests.some((r) => r.url.includes(`/${encodeURIComponent(quirkId)}/`))).toBe(true)

    // The now-playing screen says where it comes from.
    await page.getByTestId('player-open-now-playing').click()
    await expect
      .poll(() => textOf(page.getByTestId('now-playing-source')), { timeout: 15_000 })
      .toBe(`From ${quirkName}`)
    await page.keyboard.press('Escape')

    // A switch of the active source while it plays: it plays on.
    await activateInSettings(page, quirk.url)
    await expect.poll(() => textOf(titleOf(page)), { timeout: 15_000 }).toBe(quirkSong.name)
    const before = await page
      .getByTestId('player-audio')
      .evaluate((el) => (el as HTMLAudioElement).currentTime)
    await waitForClock(page, before + 1, 30_000)
    await activateInSettings(page, undefined)
    // Paused: the session is saved.
    await page.getByTestId('player-toggle').click()
    await expect
      .poll(
        () => {
          const saved = app.store.snapshot().session
          return typeof saved === 'string' ? saved : ''
        },
        { timeout: 15_000 },
      )
      .toContain(quirkId)
  }, 180_000)

  it('restores the mixed queue after a restart, each song playing from its own source', async () => {
    const store = app.store.snapshot()
    await app.close()
    app = await startApp({ demo: DEMO, store })
    const { page } = app
    await expect.poll(() => textOf(titleOf(page)), { timeout: 30_000 }).toBe(quirkSong.name)
    await page.getByTestId('player-queue').click()
    const labels = page.getByTestId('queue-panel').getByTestId('queue-source')
    await expect.poll(() => labels.allInnerTexts(), { timeout: 15_000 }).toEqual([builtinName, quirkName])
    await page.getByTestId('player-queue').click()
    // The other source's song plays on from where it was.
    await page.getByTestId('player-toggle').click()
    const from = await page.getByTestId('player-audio').evaluate((el) => (el as HTMLAudioElement).currentTime)
    await waitForClock(page, from + 1, 30_000)
    // And the built-in one before it, from the built-in source.
    await page.getByTestId('player-previous').click()
    await page.getByTestId('player-previous').click()
    await expect.poll(() => textOf(titleOf(page)), { timeout: 30_000 }).toBe(builtinSong.name)
    await waitForClock(page, 1, 30_000)
    await app.screenshot('queue-sources-restored')
  }, 180_000)
})
