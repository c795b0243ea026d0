import { mkdir, readFile } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RESULTS_DIR, startApp } from './harness'
import type { App } from './harness'
import { api } from './ui-shots'
import { shootForDocsBothThemes } from './doc-shots'

interface S {
  id: number
  name: string
  artists: Array<{ id: number; name: string }>
  album?: { id: number; name: string }
}
interface P {
  id: number
  name: string
  type: string
  songs?: S[]
  meta?: { albums?: Array<{ id: number; name: string }> }
}

/** Albums, artists' albums and the user's own playlists, through the real renderer, core and server. */
describe('Browsing and collecting', () => {
  let app: App
  beforeAll(async () => {
    await mkdir(RESULTS_DIR, { recursive: true })
    app = await startApp()
  })
  afterAll(() => app?.close())

  const names = () => app.page.getByTestId('song-name').allTextContents()
  const sidebarItems = () => app.page.getByTestId('sidebar-collection-item')

  /** Makes a playlist of the first `count` songs on Home through the UI, as a person would; each test
   * that needs one makes its own instead of relying on what an earlier test left. */
  async function playlistFromHome(name: string, count: number): Promise<string[]> {
    const page = app.page
    await page.getByTestId('nav-home').click()
    await page.getByTestId('collection-new').click()
    await page.getByTestId('collection-name-input').fill(name)
    await page.getByTestId('collection-name-save').click()
    await page.getByTestId('collection-empty').waitFor()
    await page.getByTestId('nav-home').click()
    const rows = page.getByTestId('home-songs').getByTestId('song-row')
    await rows.first().waitFor()
    const wanted = (await page.getByTestId('home-songs').getByTestId('song-name').allTextContents()).slice(
      0,
      count,
    )
    for (let i = 0; i < count; i++) {
      await rows.nth(i).getByTestId('song-name').click({ button: 'right' })
      await page.locator('[data-menu-item="add-to-playlist"]').click()
      await page.getByTestId('collection-add-target').filter({ hasText: name }).click()
      await page.getByTestId('collection-add-dialog').waitFor({ state: 'detached' })
    }
    return wanted
  }

  it('goes from a song to its album page, with the songs the data source lists', async () => {
    const page = app.page
    await page.getByTestId('nav-home').click()
    const songs = await api<S[]>(app, '/song/recommend?limit=10')
    const index = songs.findIndex((s) => s.album)
    const album = songs[index].album!
    const detail = await api<P>(app, `/playlist/detail?id=${album.id}`)
    expect(detail.type).toBe('album')
    const row = page.getByTestId('home-songs').getByTestId('song-row').nth(index)
    await row.getByTestId('song-name').click({ button: 'right' })
    await page.locator(`[data-menu-item="album"]`).click()
    await expect.poll(() => page.getByTestId('playlist-name').textContent()).toBe(album.name)
    await expect
      .poll(() => page.getByTestId('playlist-type').textContent(), { timeout: 10_000 })
      .toBe('Album')
    await page.getByTestId('song-row').first().waitFor()
    await expect.poll(() => names(), { timeout: 10_000 }).toEqual(detail.songs!.map((s) => s.name))
    await expect.poll(() => page.getByTestId('album-by-search').count(), { timeout: 10_000 }).toBe(0)
    await expect
      .poll(() => page.getByTestId('playlist-duration').textContent(), { timeout: 10_000 })
      .toMatch(/^\d+ min \d+ s$/)
    await page.mouse.move(640, 760)
    await shootForDocsBothThemes(page, 'album')
    await page.getByTestId('song-row').first().getByTestId('song-name').click({ button: 'right' })
    await page.locator('[data-menu-item="copy-link"]').click()
    await expect.poll(() => app.copied.at(-1)).toBe(`${app.sourceUrl}/song/detail?id=${detail.songs![0].id}`)
  })

  it('finds an album by search, and says so, when the link has no album id', async () => {
    const page = app.page
    const songs = await api<S[]>(app, '/song/recommend?limit=10')
    const album = songs.find((s) => s.album)!.album!
    await page.evaluate((name) => {
      window.location.hash = `#/album?name=${encodeURIComponent(name)}`
    }, album.name)
    await page.getByTestId('album-by-search').waitFor()
    await page.getByTestId('song-row').first().waitFor()
    const detail = await api<P>(app, `/playlist/detail?id=${album.id}`)
    const found = await names()
    expect(found.length).toBeGreaterThan(0)
    for (const name of found) expect(detail.songs!.map((s) => s.name)).toContain(name)
    await app.screenshot('ui-album-by-search')
  })

  it("shows an artist's albums from meta.albums and opens one", async () => {
    const page = app.page
    const songs = await api<S[]>(app, '/song/recommend?limit=10')
    const artist = songs[0].artists[0]
    const detail = await api<P>(app, `/artist/detail?id=${artist.id}`)
    await page.evaluate((id) => {
      window.location.hash = `#/artist/${id}`
    }, artist.id)
    await expect.poll(() => page.getByTestId('playlist-name').textContent()).toBe(artist.name)
    const cards = page.getByTestId('artist-albums').getByTestId('album-card')
    await expect.poll(() => cards.count()).toBe(detail.meta!.albums!.length)
    await expect
      .poll(() => cards.locator('h3').allTextContents(), { timeout: 10_000 })
      .toEqual(detail.meta!.albums!.map((a) => a.name))
    await expect.poll(() => page.getByTestId('albums-by-search').count(), { timeout: 10_000 }).toBe(0)
    await cards.first().scrollIntoViewIfNeeded()
    await app.screenshot('ui-artist-albums')
    if (detail.meta!.albums!.length) {
      await cards.first().click()
      await expect
        .poll(() => page.getByTestId('playlist-name').textContent())
        .toBe(detail.meta!.albums![0].name)
    }
  })

  it('makes a playlist, adds songs from their menus, reorders by drag, and keeps it in main', async () => {
    const page = app.page
    await page.getByTestId('nav-home').click()
    await page.getByTestId('collection-new').click()
    await page.getByTestId('collection-name-input').fill('Evening')
    await page.getByTestId('collection-name-save').click()
    await page.getByTestId('collection-empty').waitFor()
    await expect
      .poll(() => page.getByTestId('sidebar-collection-item').allTextContents(), { timeout: 10_000 })
      .toEqual(['Evening'])

    await page.getByTestId('nav-home').click()
    const rows = page.getByTestId('home-songs').getByTestId('song-row')
    await rows.first().waitFor()
    const wanted = (await page.getByTestId('home-songs').getByTestId('song-name').allTextContents()).slice(
      0,
      3,
    )
    await expect
      .poll(() => page.getByTestId('home-songs-duration').textContent(), { timeout: 10_000 })
      .toMatch(/^\s*\d+ songs · \d+ min \d+ s\s*$/)
    await page.getByTestId('home-songs').screenshot({ path: `${RESULTS_DIR}/ui-home-songs.png` })
    for (let i = 0; i < 3; i++) {
      await rows.nth(i).getByTestId('song-name').click({ button: 'right' })
      await page.locator('[data-menu-item="add-to-playlist"]').click()
      await page.getByTestId('collection-add-target').filter({ hasText: 'Evening' }).click()
      await page.getByTestId('collection-add-dialog').waitFor({ state: 'detached' })
    }

    await page.getByTestId('sidebar-collection-item').filter({ hasText: 'Evening' }).click()
    await expect.poll(() => page.getByTestId('playlist-name').textContent()).toBe('Evening')
    await expect.poll(names).toEqual(wanted)
    await expect
      .poll(() => page.getByTestId('playlist-count').textContent(), { timeout: 10_000 })
      .toBe('3 songs')

    const list = page.getByTestId('song-row')
    await list.nth(0).dragTo(list.nth(2))
    await expect.poll(names).toEqual([wanted[1], wanted[2], wanted[0]])
    const stored = app.store.snapshot().collections as Array<{ name: string; songs: S[] }>
    expect(stored.map((p) => p.name)).toEqual(['Evening'])
    expect(stored[0].songs.map((s) => s.name)).toEqual([wanted[1], wanted[2], wanted[0]])
    expect(JSON.stringify(stored)).not.toMatch(/"url"|lyric/)

    // A reload reads it back from main.
    await page.reload()
    await page.getByTestId('sidebar-collection-item').first().waitFor()
    await page.getByTestId('sidebar-collection-item').filter({ hasText: 'Evening' }).click()
    await expect.poll(names).toEqual([wanted[1], wanted[2], wanted[0]])
    await page.mouse.move(640, 760)
    await shootForDocsBothThemes(page, 'user-playlist')
  })

  it('adds the playing song from the now-playing screen', async () => {
    const page = app.page
    await page.getByTestId('nav-home').click()
    const first = page.getByTestId('home-songs').getByTestId('song-row').first()
    const title = (await first.getByTestId('song-name').textContent())!
    // A person double-clicks a song on its title (the artist and album cells are links).
    await first.getByTestId('song-name').dblclick()
    await expect.poll(() => page.getByTestId('player-title').textContent()).toBe(title)
    const screen = page.getByTestId('now-playing-screen')
    await page.getByTestId('player-open-now-playing').click()
    await screen.waitFor()
    await page.getByTestId('now-playing-add').click()
    await page.getByTestId('collection-add-new-name').fill('From now playing')
    await page.getByTestId('collection-add-new').click()
    await page.getByTestId('collection-add-dialog').waitFor({ state: 'detached' })
    await expect.poll(() => screen.isVisible(), { timeout: 10_000 }).toBe(true)
    await page.keyboard.press('Escape')
    await screen.waitFor({ state: 'detached' })
    await page.getByTestId('sidebar-collection-item').filter({ hasText: 'From now playing' }).click()
    await expect.poll(() => page.getByTestId('song-row').count()).toBe(1)
  })

  it('exports as M3U8 and imports it back as a new playlist with the same songs', async () => {
    const page = app.page
    const made = await playlistFromHome('Export me', 2)
    await sidebarItems().filter({ hasText: 'Export me' }).click()
    await expect.poll(() => page.getByTestId('playlist-name').textContent()).toBe('Export me')
    await expect.poll(names).toEqual(made)
    const before = await names()
    const playlists = await sidebarItems().count()
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('collection-export-m3u8').click(),
    ])
    expect(download.suggestedFilename()).toBe('Export me.m3u8')
    const path = `${RESULTS_DIR}/Export me.m3u8`
    await download.saveAs(path)
    const text = await readFile(path, 'utf8')
    expect(text.startsWith('#EXTM3U\n#PLAYLIST:Export me\n#EXTINF:')).toBe(true)
    expect(text).toContain(`${app.sourceUrl}/song/detail?id=`)

    await page.getByTestId('collection-import-file').setInputFiles(path)
    await expect.poll(() => sidebarItems().count()).toBe(playlists + 1)
    // The copy is told apart from the playlist it was exported from.
    await expect.poll(() => sidebarItems().allTextContents(), { timeout: 10_000 }).toContain('Export me (2)')
    await expect.poll(() => page.getByTestId('playlist-name').textContent()).toBe('Export me (2)')
    await expect.poll(names).toEqual(before)
    const stored = app.store.snapshot().collections as Array<{ id: string; name: string }>
    const original = stored.find((p) => p.name === 'Export me')!
    expect(page.url()).not.toContain(original.id)

    // Delete the copy, after confirming.
    await page.getByTestId('collection-delete').click()
    await page.getByTestId('collection-delete-confirm').click()
    await expect.poll(() => sidebarItems().count()).toBe(playlists)
  })
})
