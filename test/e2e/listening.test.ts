import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { parseLrc } from '@shared/lyrics'
import type { Rect } from '@main/core/listen/ports'
import { startApp } from './harness'
import type { App } from './harness'
import { findSongs, playSongs, playable, seekWithSlider, waitForClock } from './playback-support'
import { shootForDocs } from './doc-shots'

/**
 * Desktop lyrics, the mini player and the track-change notification through the real renderer and core.
 * The desktop lyrics window is a second page at `#/desktop-lyrics` (as main loads it), the mini player
 * resizes the page's viewport as main resizes the window, and the notifier records what it was asked to
 * show (the OS part is Electron's).
 */
describe('Listening beyond the main window', () => {
  let app: App
  let lyricsPage: Promise<Page> | undefined
  const lockedCalls: boolean[] = []
  const notifications: Array<{ title: string; body: string; icon?: Uint8Array }> = []
  const full = { width: 1280, height: 800 }

  beforeAll(async () => {
    app = await startApp({
      viewport: full,
      listen: {
        desktopLyrics: {
          open(bounds: Rect) {
            lyricsPage ??= app.context.newPage().then(async (page) => {
              await page.setViewportSize({ width: bounds.width, height: bounds.height })
              await page.goto(`${app.appUrl}/index.html#/desktop-lyrics`)
              return page
            })
          },
          close() {
            const open = lyricsPage
            lyricsPage = undefined
            void open?.then((page) => page.close())
          },
          setLocked: (locked) => void lockedCalls.push(locked),
        },
        miniPlayer: {
          workArea: () => ({ x: 0, y: 0, ...full }),
          enter: (bounds) => void app.page.setViewportSize({ width: bounds.width, height: bounds.height }),
          leave: () => void app.page.setViewportSize(full),
        },
        notifier: {
          supported: () => true,
          appFocused: () => false,
          show: (notification) => void notifications.push(notification),
        },
      },
    })
    await app.page.getByTestId('now-playing').waitFor()
  })
  afterAll(() => app?.close())

  it('desktop lyrics: toggled from the tray, shows the line being sung and the next, locks to click-through', async () => {
    const { page } = app
    const [song] = await findSongs(app, 1, (s) => playable(s) && !!s.meta?.lyric?.translation)
    const lines = parseLrc(song.meta!.lyric!.normal!).filter((line) => line.text.trim() !== '')
    await playSongs(page, [song])
    await waitForClock(page, 0.2)

    app.core.listen.desktopLyrics.toggle()
    expect(lyricsPage).toBeDefined()
    const lyrics = await lyricsPage!
    const current = lyrics.getByTestId('desktop-lyrics-current')
    await current.waitFor()
    expect(lockedCalls.at(-1)).toBe(false)

    // Seek (with the main window's slider) into the third line: the lyrics window follows.
    const target = lines[2]
    await seekWithSlider(page, target.time + 200)
    await expect.poll(() => current.innerText(), { timeout: 10_000 }).toBe(target.text)
    await expect
      .poll(() => lyrics.getByTestId('desktop-lyrics-next').innerText(), { timeout: 10_000 })
      .toBe(lines[3]?.text ?? '')
    await expect
      .poll(() => lyrics.getByTestId('desktop-lyrics-translation').innerText(), { timeout: 10_000 })
      .not.toBe('')
    // The page is see-through, as the transparent window needs.
    expect(await lyrics.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(
      'rgba(0, 0, 0, 0)',
    )

    await lyrics.getByTestId('desktop-lyrics').hover()
    await shootForDocs(lyrics, 'desktop-lyrics', { transparent: true })
    await lyrics.getByTestId('desktop-lyrics-lock').click()
    await expect.poll(() => lockedCalls.at(-1)).toBe(true)
    await lyrics.getByTestId('desktop-lyrics-lock').waitFor({ state: 'detached' })

    // The tray toggles it off again; the setting follows.
    app.core.listen.desktopLyrics.toggle()
    expect(app.core.settings.get().lyrics.desktop).toBe(false)
  })

  it('mini player: replaces the main window with a small one and back', async () => {
    const { page } = app
    await page.getByTestId('player-mini').click()
    const mini = page.getByTestId('mini-player')
    await mini.waitFor()
    expect(page.viewportSize()).toEqual({ width: 380, height: 112 })
    await expect.poll(() => page.getByTestId('nav-settings').isVisible(), { timeout: 10_000 }).toBe(false)
    await expect
      .poll(() => page.getByTestId('mini-player-title').innerText(), { timeout: 10_000 })
      .not.toBe('')
    await shootForDocs(page, 'mini-player')
    await mini.getByTestId('player-toggle').click()
    await expect
      .poll(() => page.getByTestId('player-audio').evaluate((el) => (el as HTMLAudioElement).paused))
      .toBe(true)
    await page.getByTestId('mini-player-leave').click()
    await mini.waitFor({ state: 'detached' })
    expect(page.viewportSize()).toEqual(full)
    await page.getByTestId('nav-settings').waitFor()
  })

  it('track-change notification: off by default, then the song with its cover as a PNG', async () => {
    const { page } = app
    const songs = await findSongs(app, 3, playable)
    await playSongs(page, songs)
    await waitForClock(page, 0.1)
    expect(notifications).toEqual([])
    await page.evaluate(() => window.cadence.invoke('settings:update', { notifyTrackChange: true }))
    await page.getByTestId('now-playing').getByTestId('player-next').click()
    // The next song's notification (the first song's may come too, if its cover was drawn after the setting
    // was turned on and before the click: it was still playing then).
    await expect.poll(() => notifications.at(-1)?.title, { timeout: 10_000 }).toBe(songs[1].name)
    expect(notifications.every((n) => n.title === songs[0].name || n.title === songs[1].name)).toBe(true)
    const shown = notifications.at(-1)!
    expect(shown.title).toBe(songs[1].name)
    expect(shown.body).toContain(songs[1].artists[0].name)
    // The reference server's covers are SVG: the renderer drew it as a PNG for the OS.
    expect([...shown.icon!.slice(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47])
  })
})
