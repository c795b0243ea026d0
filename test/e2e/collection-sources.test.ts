import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CollectionPlaylist, CollectionSummary } from '@shared/ipc/contract'
import { startApp } from './harness'
import type { App } from './harness'
import { seekWithSlider, waitForClock } from './playback-support'
import {
  activateInSettings,
  addSource,
  addToQueue,
  sourceSongs,
  startQuirkServer,
  textOf,
} from './sources-support'

/**
 * Issue 36, your own playlists across sources: one playlist holds a song of the built-in source (added
 * from a row of Home) and one of a NeteaseMusicAdapter-like server (a quirk proxy; added from the queue
 * while that server is active). After a switch of the active source the playlist lists both, each named
 * with its source, and Play all plays both in order, each from its own source.
 */

const DEMO = 20
const PLAYLIST = 'Both sources'

/** Picks the playlist in the open "Add to playlist" dialog. */
async function pickPlaylist(page: Page) {
  await page.getByTestId('collection-add-target').filter({ hasText: PLAYLIST }).click({ timeout: 30_000 })
  await page.getByTestId('collection-add-dialog').waitFor({ state: 'detached' })
}

describe('Your playlists across data sources', () => {
  let app: App
  let quirk: Awaited<ReturnType<typeof startQuirkServer>>
  let quirkId = ''
  let quirkName = ''
  let builtinName = ''

  beforeAll(async () => {
    quirk = await startQuirkServer('collection-sources')
    app = await startApp({ demo: DEMO })
    const added = await addSource(app, quirk.url)
    quirkId = added.id
    quirkName = added.name
    builtinName = added.builtinName
  }, 120_000)
  afterAll(async () => {
    await app?.close()
    await quirk?.close()
  })

  const call = async <T>(channel: string, args?: unknown): Promise<T> => {
    const answer = await app.core.router.invoke(channel as never, args as never, {
      senderUrl: `${app.appUrl}/index.html`,
    })
    if (!answer.ok) throw new Error(answer.error.message)
    return answer.value as T
  }

  it('holds a song of each source, lists both with their source after a switch, and plays both', async () => {
    const { page } = app
    // A playlist of your own, made in the sidebar; a song of the built-in source added from Home.
    await page.getByTestId('nav-home').click()
    await page.getByTestId('collection-new').click()
    await page.getByTestId('collection-name-input').fill(PLAYLIST)
    await page.getByTestId('collection-name-save').click()
    await page.getByTestId('collection-empty').waitFor()
    await page.getByTestId('nav-home').click()
    const row = page
      .getByTestId('home-songs')
      .locator('[data-testid="song-row"]:not([aria-disabled="true"])')
      .first()
    await row.waitFor({ timeout: 30_000 })
    const builtinTitle = await row.getByTestId('song-name').innerText()
    await row.getByTestId('song-name').click({ button: 'right' })
    await page.locator('[data-menu-item="add-to-playlist"]').click()
    await pickPlaylist(page)

    // The other source made active: one of its songs, in the queue, added from the queue's menu.
    await activateInSettings(page, quirk.url)
    const quirkSong = (await sourceSongs(app, quirkId, 3)).find((song) => song.name !== builtinTitle)!
    await addToQueue(page, [quirkSong])
    await page.getByTestId('player-queue').click()
    const entry = page
      .getByTestId('queue-panel')
      .getByTestId('queue-item')
      .filter({ hasText: quirkSong.name })
    await entry.click({ button: 'right' })
    await page.locator('[data-menu-item="add-to-playlist"]').click()
    await pickPlaylist(page)
    await page.getByTestId('player-queue').click()

    // Back to the built-in source: the playlist lists both, each named with its source.
    await activateInSettings(page, undefined)
    await page.getByTestId('sidebar-collection-item').filter({ hasText: PLAYLIST }).click()
    const rows = page.getByTestId('song-row')
    await expect
      .poll(() => rows.getByTestId('song-name').allInnerTexts(), { timeout: 30_000 })
      .toEqual([builtinTitle, quirkSong.name])
    await expect
      .poll(() => rows.getByTestId('song-source').allInnerTexts(), { timeout: 30_000 })
      .toEqual([builtinName, quirkName])
    const [mine] = await call<CollectionSummary[]>('collection:list')
    const kept = await call<CollectionPlaylist>('collection:get', { id: mine!.id })
    expect(kept.songs.map((s) => s.sourceId)).toEqual(['builtin', quirkId])

    // Play all: the built-in song, then (at its end) the other source's, from that source.
    await page.getByTestId('play-all').click()
    const title = page.getByTestId('player-title')
    await expect.poll(() => textOf(title), { timeout: 30_000 }).toBe(builtinTitle)
    await waitForClock(page, 0.5, 30_000)
    await seekWithSlider(page, kept.songs[0]!.duration! - 2500)
    await expect.poll(() => textOf(title), { timeout: 30_000 }).toBe(quirkSong.name)
    await waitForClock(page, 1, 30_000)
    expect(app.mediaRequests.some((r) => r.url.includes(`/${encodeURIComponent(quirkId)}/`))).toBe(true)
    await app.screenshot('collection-sources')
  }, 240_000)
})
