import { mkdir } from 'node:fs/promises'
import type { Locator } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RESULTS_DIR, startApp } from './harness'
import type { App } from './harness'
import { api } from './ui-shots'

interface S {
  id: number
  name: string
  artists: Array<{ id: number; name: string }>
  album?: { id: number; name: string }
}
interface P {
  id: number
  name: string
  songs?: S[]
}

/**
 * Every action of a song's menu from every place songs are listed (rows carry fewer fields than whole
 * songs), and the menu of a multi-selection acting on every selected song.
 */
describe('Song actions from every list', () => {
  let app: App
  beforeAll(async () => {
    await mkdir(RESULTS_DIR, { recursive: true })
    app = await startApp()
  })
  afterAll(() => app?.close())

  const go = (hash: string) =>
    app.page.evaluate((h) => {
      window.location.hash = h
    }, hash)
  const stored = () =>
    (app.store.snapshot().collections as Array<{ name: string; songs: S[] }> | undefined) ?? []
  const queueNames = async () => {
    const page = app.page
    const open = (await page.getByTestId('queue-panel').count()) > 0
    if (!open) await page.getByTestId('player-queue').click()
    const names = await page.getByTestId('queue-item').locator('.name').allTextContents()
    await page.getByTestId('player-queue').click()
    return names
  }
  const menu = async (row: Locator) => {
    await row.getByTestId('song-name').click({ button: 'right' })
    return app.page.getByRole('menu')
  }
  const item = (id: string) => app.page.locator(`[data-menu-item="${id}"]`)

  /** Runs every action of the first row's menu in `list`; `where` names the playlist made from it. */
  async function everyAction(list: Locator, where: string) {
    const page = app.page
    const row = list.getByTestId('song-row').first()
    await row.waitFor()
    const name = (await row.getByTestId('song-name').textContent())!

    await menu(row)
    await item('add-to-playlist').click()
    await page.getByTestId('collection-add-new-name').fill(where)
    await page.getByTestId('collection-add-new').click()
    await page.getByTestId('collection-add-dialog').waitFor({ state: 'detached' })
    await expect
      .poll(() =>
        stored()
          .find((p) => p.name === where)
          ?.songs.map((s) => s.name),
      )
      .toEqual([name])

    await menu(row)
    await item('add-to-queue').click()
    await expect.poll(async () => (await queueNames()).at(-1)).toBe(name)

    await menu(row)
    await item('play-next').click()
    await expect.poll(queueNames).toContain(name)

    const heart = row.getByTestId('like-button')
    const pressed = await heart.getAttribute('aria-pressed')
    await menu(row)
    await item('like').click()
    await expect.poll(() => heart.getAttribute('aria-pressed')).not.toBe(pressed)
    await menu(row)
    await item('like').click()
    await expect.poll(() => heart.getAttribute('aria-pressed')).toBe(pressed)

    const copies = app.copied.length
    await menu(row)
    await item('copy-link').click()
    await expect.poll(() => app.copied.length).toBe(copies + 1)
    expect(app.copied.at(-1)).toMatch(/\/song\/detail\?id=/)
    await page.keyboard.press('Escape')
    return name
  }

  it('from Home', async () => {
    await go('#/')
    await everyAction(app.page.getByTestId('home-songs'), 'From Home')
    // Download: the song is queued to be kept for offline listening.
    const row = app.page.getByTestId('home-songs').getByTestId('song-row').first()
    await menu(row)
    await item('download').click()
    await app.page
      .getByTestId('toast')
      .filter({ hasText: 'Downloading 1 song for offline listening' })
      .waitFor()
  })

  it("from one of the data source's playlists", async () => {
    const lists = await api<P[]>(app, '/playlist/recommend?limit=3')
    await go(`#/playlist/${lists[0].id}`)
    await everyAction(app.page.locator('main'), 'From a playlist')
  })

  it('from an album page, and Go to artist from there', async () => {
    const songs = await api<S[]>(app, '/song/recommend?limit=10')
    const album = songs.find((s) => s.album)!.album!
    await go(`#/album/${album.id}`)
    await expect.poll(() => app.page.getByTestId('playlist-name').textContent()).toBe(album.name)
    await everyAction(app.page.locator('main'), 'From an album')
    const row = app.page.locator('main').getByTestId('song-row').first()
    const detail = await api<P>(app, `/playlist/detail?id=${album.id}`)
    const artist = detail.songs![0].artists[0]
    await menu(row)
    await item(`artist:${artist.id}`).click()
    await expect.poll(() => app.page.getByTestId('playlist-name').textContent()).toBe(artist.name)
  })

  it('from an artist page, and Go to album from there', async () => {
    const songs = await api<S[]>(app, '/song/recommend?limit=10')
    const artist = songs[0].artists[0]
    await go(`#/artist/${artist.id}`)
    await expect.poll(() => app.page.getByTestId('playlist-name').textContent()).toBe(artist.name)
    await everyAction(app.page.locator('main'), 'From an artist')
    const row = app.page.locator('main').getByTestId('song-row').first()
    await menu(row)
    const album = item('album')
    const label = (await album.textContent())!
    await album.click()
    await expect.poll(() => app.page.getByTestId('playlist-type').textContent()).toBe('Album')
    expect(label).toContain((await app.page.getByTestId('playlist-name').textContent())!)
  })

  it('from search results', async () => {
    const songs = await api<S[]>(app, '/song/recommend?limit=1')
    await go(`#/search?q=${encodeURIComponent(songs[0].name)}`)
    await everyAction(app.page.getByTestId('search-songs'), 'From search')
  })

  it('from the queue panel', async () => {
    const page = app.page
    await go('#/')
    const first = page.getByTestId('home-songs').getByTestId('song-row').first()
    await first.getByTestId('song-name').dblclick()
    await page.getByTestId('player-queue').click()
    const entry = page.getByTestId('queue-item').first()
    const name = (await entry.locator('.name').textContent())!
    await entry.click({ button: 'right' })
    await item('add-to-playlist').click()
    await page.getByTestId('collection-add-new-name').fill('From the queue')
    await page.getByTestId('collection-add-new').click()
    await page.getByTestId('collection-add-dialog').waitFor({ state: 'detached' })
    await expect
      .poll(() =>
        stored()
          .find((p) => p.name === 'From the queue')
          ?.songs.map((s) => s.name),
      )
      .toEqual([name])
    await page.getByTestId('player-queue').click()
  })

  it('from the now-playing screen: add to playlist and like', async () => {
    const page = app.page
    await go('#/')
    const first = page.getByTestId('home-songs').getByTestId('song-row').first()
    const name = (await first.getByTestId('song-name').textContent())!
    await first.getByTestId('song-name').dblclick()
    await expect.poll(() => page.getByTestId('player-title').textContent()).toBe(name)
    await page.getByTestId('player-open-now-playing').click()
    const screen = page.getByTestId('now-playing-screen')
    await screen.waitFor()
    await page.getByTestId('now-playing-add').click()
    await page.getByTestId('collection-add-new-name').fill('From now playing screen')
    await page.getByTestId('collection-add-new').click()
    await page.getByTestId('collection-add-dialog').waitFor({ state: 'detached' })
    await expect
      .poll(() =>
        stored()
          .find((p) => p.name === 'From now playing screen')
          ?.songs.map((s) => s.name),
      )
      .toEqual([name])
    const heart = screen.getByTestId('now-playing-like')
    const before = await heart.getAttribute('aria-pressed')
    await heart.click()
    await expect.poll(() => heart.getAttribute('aria-pressed')).not.toBe(before)
    await heart.click()
    await expect.poll(() => heart.getAttribute('aria-pressed')).toBe(before)
    await page.keyboard.press('Escape')
    await screen.waitFor({ state: 'detached' })
  })

  it('acts on every selected row: play next, add to queue, like, add to playlist', async () => {
    const page = app.page
    const lists = await api<P[]>(app, '/playlist/recommend?limit=3')
    await go(`#/playlist/${lists[1].id}`)
    const rows = page.locator('main').getByTestId('song-row')
    await rows.nth(2).waitFor()
    const picked = [
      (await rows.nth(0).getByTestId('song-name').textContent())!,
      (await rows.nth(2).getByTestId('song-name').textContent())!,
    ]
    await rows
      .nth(0)
      .getByTestId('song-name')
      .click({ modifiers: ['ControlOrMeta'] })
    await rows
      .nth(2)
      .getByTestId('song-name')
      .click({ modifiers: ['ControlOrMeta'] })

    await menu(rows.nth(2))
    await expect(item('play-next').textContent()).resolves.toContain('2')
    await item('play-next').click()
    await expect.poll(queueNames).toEqual(expect.arrayContaining(picked))

    const before = (await queueNames()).length
    await menu(rows.nth(0))
    await item('add-to-queue').click()
    await expect.poll(async () => (await queueNames()).slice(-2)).toEqual(picked)
    expect((await queueNames()).length).toBe(before + 2)

    await menu(rows.nth(0))
    await item('like').click()
    for (const i of [0, 2]) {
      await expect
        .poll(() => rows.nth(i).getByTestId('like-button').getAttribute('aria-pressed'))
        .toBe('true')
    }
    await menu(rows.nth(0))
    await item('like').click()
    for (const i of [0, 2]) {
      await expect
        .poll(() => rows.nth(i).getByTestId('like-button').getAttribute('aria-pressed'))
        .toBe('false')
    }

    await menu(rows.nth(0))
    await item('add-to-playlist').click()
    await page.getByTestId('collection-add-new-name').fill('From a selection')
    await page.getByTestId('collection-add-new').click()
    await page.getByTestId('collection-add-dialog').waitFor({ state: 'detached' })
    await expect
      .poll(() =>
        stored()
          .find((p) => p.name === 'From a selection')
          ?.songs.map((s) => s.name),
      )
      .toEqual(picked)
  })

  it('plays all and shuffles on album pages, artist pages and your own playlists', async () => {
    const page = app.page
    const songs = await api<S[]>(app, '/song/recommend?limit=10')
    const album = songs.find((s) => s.album)!.album!
    const artist = songs[0].artists[0]
    // One of your own playlists, made here (no test relies on another's leftovers).
    await go('#/')
    const homeRow = page.getByTestId('home-songs').getByTestId('song-row').first()
    await menu(homeRow)
    await item('add-to-playlist').click()
    await page.getByTestId('collection-add-new-name').fill('Play me')
    await page.getByTestId('collection-add-new').click()
    await page.getByTestId('collection-add-dialog').waitFor({ state: 'detached' })
    const own = { name: 'Play me' }
    for (const hash of [`#/album/${album.id}`, `#/artist/${artist.id}`, '#/']) {
      await go(hash)
      if (hash === '#/') {
        await app.page.getByTestId('sidebar-collection-item').filter({ hasText: own.name }).click()
        await expect.poll(() => page.getByTestId('playlist-name').textContent()).toBe(own.name)
      }
      const firstRow = page.locator('main').getByTestId('song-row').first()
      await firstRow.waitFor()
      const name = await firstRow.getByTestId('song-name').textContent()
      await expect.poll(() => page.getByTestId('shuffle').isEnabled(), { timeout: 10_000 }).toBe(true)
      await page.getByTestId('play-all').click()
      await expect.poll(() => page.getByTestId('player-title').textContent()).toBe(name)
    }
  })

  it("opens a row's album from its album cell", async () => {
    const page = app.page
    await go('#/')
    const row = page.getByTestId('home-songs').getByTestId('song-row').first()
    const cell = row.locator('.album a')
    const album = (await cell.textContent())!
    await cell.click()
    await expect.poll(() => page.getByTestId('playlist-name').textContent()).toBe(album)
    await expect
      .poll(() => page.getByTestId('playlist-type').textContent(), { timeout: 10_000 })
      .toBe('Album')
  })

  it('says what to do when Play is pressed with nothing in the queue', async () => {
    const page = app.page
    await page.evaluate(() => {
      const pinia = (
        document.querySelector('#app') as unknown as {
          __vue_app__: { config: { globalProperties: { $pinia: { _s: Map<string, { clear(): void }> } } } }
        }
      ).__vue_app__.config.globalProperties.$pinia
      pinia._s.get('player')!.clear()
    })
    await page.getByTestId('player-toggle').click()
    await expect.poll(() => page.getByTestId('player-notice').textContent()).toContain('Nothing to play yet')
  })
})
