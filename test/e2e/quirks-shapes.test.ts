import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDataSource } from '@server/index'
import type { DataSourceHandle } from '@server/index'
import { RESULTS_DIR, startApp } from './harness'
import type { App } from './harness'
import { findSongs, playSongs, playable } from './playback-support'
import * as phone from '../support/phone'
import { startQuirkProxy } from '../support/quirk-proxy'
import type { QuirkProxy } from '../support/quirk-proxy'

/**
 * The shapes of a QQ-like server's answers, through the real renderer: playlist details without a name or
 * cover, no `meta.kind` marking the liked-songs playlist, `//` for untranslated lyric lines, and no
 * artist pages at all (`/artist/detail` is a bare 404).
 */
describe('A qq-like data source: the shapes of its answers', () => {
  let app: App
  let server: DataSourceHandle
  let proxy: QuirkProxy
  let dataDir: string

  beforeAll(async () => {
    await mkdir(RESULTS_DIR, { recursive: true })
    dataDir = await mkdtemp(join(tmpdir(), 'cadence-e2e-quirks-shapes-'))
    server = await startDataSource({
      ownerPassphrase: phone.OWNER_PASSPHRASE,
      dataDir,
      port: 0,
      demo: 80,
      ownerName: 'Quirk Owner',
    })
    proxy = await startQuirkProxy(server.url, 'qq', { shapes: true })
    app = await startApp({ sourceUrl: proxy.url })
  })
  afterAll(async () => {
    await app?.close()
    await proxy?.close()
    await server?.close()
    await rm(dataDir, { recursive: true, force: true })
  })

  it("shows the clicked card's name when the playlist's detail has none", async () => {
    const { page } = app
    const card = page.getByTestId('home-playlists').getByTestId('playlist-card').first()
    await card.waitFor()
    const name = (await card.locator('h3').textContent())!.trim()
    expect(name).not.toBe('Untitled')
    await card.click()
    await expect.poll(() => page.getByTestId('playlist-name').textContent()).toBe(name)
  })

  it('says the data source has no artist pages, and song rows stop linking to them', async () => {
    const { page } = app
    const link = page.locator('main [data-testid="song-row"] a[data-artist]').first()
    await link.waitFor()
    await link.click()
    const message = page.getByTestId('artist-no-pages')
    await message.waitFor()
    await expect.poll(() => message.textContent(), { timeout: 10_000 }).toContain('no artist pages')
    await page.goBack()
    await page.locator('main [data-testid="song-row"]').first().waitFor()
    await expect
      .poll(() => page.locator('main [data-testid="song-row"] a[data-artist]').count(), { timeout: 10_000 })
      .toBe(0)
  })

  it('shows no // line as a translation', async () => {
    const { page } = app
    const [song] = await findSongs(
      app,
      1,
      (s) => playable(s) && (s.meta?.lyric?.translation?.match(/\]\/\/$/gm)?.length ?? 0) > 1,
    )
    await playSongs(page, [song])
    await page.getByTestId('player-open-now-playing').click()
    await page.getByTestId('now-playing-screen').waitFor()
    await page.locator('[data-testid="lyrics-line"] .translation').first().waitFor()
    const translations = await page.locator('[data-testid="lyrics-line"] .translation').allTextContents()
    expect(translations.length).toBeGreaterThan(0)
    expect(translations.filter((text) => !/[\p{L}\p{N}]/u.test(text))).toEqual([])
    await page.keyboard.press('Escape')
    await page.getByTestId('now-playing-screen').waitFor({ state: 'detached' })
  })

  it('recognises the liked-songs playlist without meta.kind, and an unliked song leaves it', async () => {
    const { page } = app
    // Sign in through the login window with the owner's phone.
    await page.getByTestId('sidebar-login').click()
    await expect.poll(() => app.loginPage()?.url() ?? '', { timeout: 10_000 }).toContain('#/login')
    const img = app.loginPage()!.getByTestId('qr-image')
    await img.waitFor()
    expect((await phone.confirmOnPhone((await img.getAttribute('data-qrurl'))!)).status).toBe(200)
    await expect
      .poll(() => page.getByTestId('sidebar-account').textContent(), { timeout: 15_000 })
      .toContain('Quirk Owner')

    await page.getByTestId('nav-home').click()
    await page.getByTestId('home-playlists').getByTestId('playlist-card').first().click()
    // Home has song rows of its own: use rows only once the playlist's page is there.
    await page.getByTestId('playlist-name').waitFor()
    const unliked = page
      .locator('main [data-testid="song-row"]')
      .filter({ has: page.locator('[data-testid="like-button"][aria-pressed="false"]') })
      .first()
    await unliked.waitFor()
    const row = page.locator(
      `main [data-testid="song-row"][data-index="${await unliked.getAttribute('data-index')}"]`,
    )
    const songName = (await row.getByTestId('song-name').textContent())!
    await row.getByTestId('like-button').click()
    await expect.poll(() => row.getByTestId('like-button').getAttribute('aria-pressed')).toBe('true')

    // The like result named the liked playlist: the library marks it, though no answer says `kind`.
    await page.getByTestId('nav-library').click()
    const liked = page.locator('[data-testid="playlist-card"][data-liked]')
    await liked.first().waitFor()
    await liked.first().click()
    const names = () => page.locator('main [data-testid="song-name"]').allTextContents()
    await expect.poll(names, { timeout: 10_000 }).toContain(songName)
    await page
      .locator('main [data-testid="song-row"]')
      .filter({ hasText: songName })
      .first()
      .getByTestId('like-button')
      .click()
    await expect.poll(names, { timeout: 10_000 }).not.toContain(songName)
  })
})
