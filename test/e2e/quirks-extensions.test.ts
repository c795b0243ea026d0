import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { startDataSource } from '@server/index'
import type { DataSourceHandle } from '@server/index'
import { RESULTS_DIR, startApp } from './harness'
import type { App } from './harness'
import { api } from './ui-shots'
import * as phone from '../support/phone'
import { likeOnPhone, phoneCredential } from '../support/phone-session'
import { startQuirkProxy } from '../support/quirk-proxy'
import type { QuirkProxy } from '../support/quirk-proxy'

interface S {
  id: number
  name: string
  album?: { id: number; name: string }
}
interface P {
  id: number
  name: string
  type: string
  creator?: { id: number; name: string }
  songs?: S[]
}

/**
 * What a person sees of the endpoints real servers answer beyond the document: on a netease-like source
 * (the quirk proxy with NeteaseMusicAdapter's extensions) album pages from /album/detail, true hearts,
 * playlists in the account and subscriptions; on spec-like and qq-like sources the fallbacks.
 */

async function signIn(app: App, owner: string) {
  const { page } = app
  await page.getByTestId('sidebar-login').click()
  await expect.poll(() => app.loginPage()?.url() ?? '', { timeout: 10_000 }).toContain('#/login')
  const img = app.loginPage()!.getByTestId('qr-image')
  await img.waitFor()
  expect((await phone.confirmOnPhone((await img.getAttribute('data-qrurl'))!)).status).toBe(200)
  await expect
    .poll(() => page.getByTestId('sidebar-account').textContent(), { timeout: 15_000 })
    .toContain(owner)
}

const openAlbum = (page: Page, album: { id: number; name: string }) =>
  page.evaluate(({ id, name }) => {
    window.location.hash = `#/album/${id}?name=${encodeURIComponent(name)}`
  }, album)

const heart = (page: Page, name: string) =>
  page
    .locator('main [data-testid="song-row"]')
    .filter({ has: page.getByTestId('song-name').getByText(name, { exact: true }) })
    .first()
    .getByTestId('like-button')

async function addToPlaylist(page: Page, songName: string, target: string, testId: string) {
  await page
    .locator('main [data-testid="song-row"]')
    .filter({ has: page.getByTestId('song-name').getByText(songName, { exact: true }) })
    .first()
    .click({ button: 'right' })
  await page.locator('[data-menu-item="add-to-playlist"]').click()
  await page.getByTestId(testId).filter({ hasText: target }).click()
  await page.getByTestId('collection-add-dialog').waitFor({ state: 'detached' })
}

async function makePlaylist(page: Page, name: string) {
  await page.getByTestId('collection-new').click()
  await page.getByTestId('collection-name-input').fill(name)
  await page.getByTestId('collection-name-save').click()
}

describe('A netease-like data source: albums, hearts and playlists in the account', () => {
  let app: App
  let server: DataSourceHandle
  let proxy: QuirkProxy
  let dataDir: string
  /** The owner signed in on their phone (a second session, outside Cadence). */
  let credential: string
  let album: P
  const owner = 'Netease Owner'

  beforeAll(async () => {
    await mkdir(RESULTS_DIR, { recursive: true })
    dataDir = await mkdtemp(join(tmpdir(), 'cadence-e2e-quirks-extensions-'))
    server = await startDataSource({
      ownerPassphrase: phone.OWNER_PASSPHRASE,
      dataDir,
      port: 0,
      demo: 80,
      ownerName: owner,
    })
    proxy = await startQuirkProxy(server.url, 'netease', { extensions: true })
    app = await startApp({ sourceUrl: proxy.url })
    credential = await phoneCredential(server.url)
    const songs = await api<S[]>(app, '/song/recommend?limit=20')
    const albumId = songs.find((s) => s.album)!.album!.id
    album = await api<P>(app, `/playlist/detail?id=${albumId}`)
    expect(album.songs!.length).toBeGreaterThan(1)
  })
  afterAll(async () => {
    await app?.close()
    await proxy?.close()
    await server?.close()
    await rm(dataDir, { recursive: true, force: true })
  })

  it('shows a song liked on the phone before this login with a pressed heart, and an unliked one empty', async () => {
    const [liked, other] = album.songs!
    await likeOnPhone(server.url, credential, liked!.id)
    await signIn(app, owner)
    await openAlbum(app.page, album)
    await expect.poll(() => heart(app.page, liked!.name).getAttribute('aria-pressed')).toBe('true')
    await expect
      .poll(() => heart(app.page, other!.name).getAttribute('aria-pressed'), { timeout: 10_000 })
      .toBe('false')

    // A like on the phone while Cadence runs shows when its window gets the focus again.
    await likeOnPhone(server.url, credential, other!.id)
    await app.page.evaluate(() => window.dispatchEvent(new Event('focus')))
    await expect.poll(() => heart(app.page, other!.name).getAttribute('aria-pressed')).toBe('true')
    await likeOnPhone(server.url, credential, other!.id, false)
    await likeOnPhone(server.url, credential, liked!.id, false)
    await app.page.evaluate(() => window.dispatchEvent(new Event('focus')))
    await expect.poll(() => heart(app.page, liked!.name).getAttribute('aria-pressed')).toBe('false')
  })

  it("lists /album/detail's tracks in their order on the album page", async () => {
    const { page } = app
    await openAlbum(page, album)
    await expect
      .poll(() => page.locator('.album-view').getAttribute('data-album-source'))
      .toBe('album-detail')
    await expect
      .poll(() => page.locator('main [data-testid="song-name"]').allTextContents())
      .toEqual(album.songs!.map((s) => s.name))
    await expect.poll(() => page.getByTestId('album-by-search').count(), { timeout: 10_000 }).toBe(0)
    expect(proxy.hits.get('/album/detail') ?? 0).toBeGreaterThan(0)

    await app.screenshot('ui-album-detail-netease')

    // Saving it to the library (PUT /album/like): the library lists it under saved albums.
    const save = page.getByTestId('album-save')
    await expect.poll(() => save.getAttribute('aria-pressed'), { timeout: 10_000 }).toBe('false')
    await save.click()
    await expect.poll(() => save.getAttribute('aria-pressed')).toBe('true')
    await page.getByTestId('nav-library').click()
    await expect
      .poll(() => page.getByTestId('library-saved-albums').locator('h3').allTextContents())
      .toEqual([album.name])
    await app.screenshot('ui-library-saved-albums')
  })

  it('makes a playlist in the account, adds two songs and removes one: the server itself shows it', async () => {
    const { page } = app
    await makePlaylist(page, 'Made in Cadence')
    await expect.poll(() => page.getByTestId('playlist-name').textContent()).toBe('Made in Cadence')
    const held = [...proxy.extensions!.playlists.values()].find((p) => p.name === 'Made in Cadence')
    expect(held).toBeDefined()
    expect(held!.id).toBeGreaterThan(2 ** 32)
    await expect.poll(() => page.getByTestId('sidebar-collection-item').count(), { timeout: 10_000 }).toBe(0)

    const [a, b] = album.songs!
    await openAlbum(page, album)
    await page.locator('main [data-testid="song-row"]').first().waitFor()
    await addToPlaylist(page, a!.name, 'Made in Cadence', 'collection-add-account-target')
    await addToPlaylist(page, b!.name, 'Made in Cadence', 'collection-add-account-target')

    // The server's own answers: the playlist is in the user's list, with both songs (new songs first).
    const me = await api<{ id: number }>(app, '/connect/status', credential)
    const list = await api<P[]>(app, `/playlist/list?uid=${me.id}`, credential)
    expect(list.map((p) => p.name)).toContain('Made in Cadence')
    const detail = await api<P>(app, `/playlist/detail?id=${held!.id}`, credential)
    expect(detail.songs!.map((s) => s.name)).toEqual([b!.name, a!.name])

    // Opening it in Cadence shows them too, and offers no rename, reorder or delete it cannot do.
    await page.evaluate((id) => (window.location.hash = `#/playlist/${id}`), held!.id)
    await expect
      .poll(() => page.locator('main [data-testid="song-name"]').allTextContents())
      .toEqual([b!.name, a!.name])
    await expect.poll(() => page.getByTestId('collection-rename').count(), { timeout: 10_000 }).toBe(0)

    // Removing a song acts on the account too.
    await page
      .locator('main [data-testid="song-row"]')
      .filter({ has: page.getByTestId('song-name').getByText(a!.name, { exact: true }) })
      .click({ button: 'right' })
    await page.locator('[data-menu-item="remove"]').click()
    await expect
      .poll(() => page.locator('main [data-testid="song-name"]').allTextContents())
      .toEqual([b!.name])
    const after = await api<P>(app, `/playlist/detail?id=${held!.id}`, credential)
    expect(after.songs!.map((s) => s.name)).toEqual([b!.name])
  })

  it("subscribes to someone's playlist: it shows under the user's playlists", async () => {
    const { page } = app
    const me = await api<{ id: number }>(app, '/connect/status', credential)
    const theirs = (await api<P[]>(app, '/playlist/recommend?limit=20')).find(
      (p) => p.creator && p.creator.id !== me.id && p.type === 'normal',
    )!
    await page.evaluate((id) => (window.location.hash = `#/playlist/${id}`), theirs.id)
    const button = page.getByTestId('playlist-subscribe')
    await button.waitFor()
    await expect.poll(() => button.getAttribute('aria-pressed'), { timeout: 10_000 }).toBe('false')
    await button.click()
    await expect.poll(() => button.getAttribute('aria-pressed')).toBe('true')
    const list = await api<P[]>(app, `/playlist/list?uid=${me.id}`, credential)
    expect(list.map((p) => p.id)).toContain(theirs.id)
    await page.getByTestId('nav-library').click()
    await expect
      .poll(() => page.getByTestId('library-grid').locator('h3').allTextContents())
      .toContain(theirs.name)
  })
})

describe.each(['spec', 'qq'] as const)('A %s-like data source: the fallbacks', (profile) => {
  let app: App
  let server: DataSourceHandle
  let proxy: QuirkProxy | undefined
  let dataDir: string
  let credential: string
  let album: P
  const owner = `${profile} Owner`

  beforeAll(async () => {
    await mkdir(RESULTS_DIR, { recursive: true })
    dataDir = await mkdtemp(join(tmpdir(), `cadence-e2e-fallbacks-${profile}-`))
    server = await startDataSource({
      ownerPassphrase: phone.OWNER_PASSPHRASE,
      dataDir,
      port: 0,
      demo: 80,
      ownerName: owner,
    })
    proxy = profile === 'qq' ? await startQuirkProxy(server.url, 'qq') : undefined
    app = await startApp({ sourceUrl: proxy?.url ?? server.url })

    credential = await phoneCredential(server.url)
    const songs = await api<S[]>(app, '/song/recommend?limit=20')
    album = await api<P>(app, `/playlist/detail?id=${songs.find((s) => s.album)!.album!.id}`)
  })
  afterAll(async () => {
    await app?.close()
    await proxy?.close()
    await server?.close()
    await rm(dataDir, { recursive: true, force: true })
  })

  it('shows hearts from the liked playlist here too', async () => {
    const [liked, other] = album.songs!
    await likeOnPhone(server.url, credential, liked!.id)
    await signIn(app, owner)
    await openAlbum(app.page, album)
    await expect.poll(() => heart(app.page, liked!.name).getAttribute('aria-pressed')).toBe('true')
    await expect
      .poll(() => heart(app.page, other!.name).getAttribute('aria-pressed'), { timeout: 10_000 })
      .toBe('false')
    await likeOnPhone(server.url, credential, liked!.id, false)
  })

  it('shows the album from the album playlist, /album/detail being absent', async () => {
    const { page } = app

    await openAlbum(page, album)
    await expect.poll(() => page.locator('.album-view').getAttribute('data-album-source')).toBe('data-source')
    await expect
      .poll(() => page.locator('main [data-testid="song-name"]').allTextContents())
      .toEqual(album.songs!.map((s) => s.name))
  })

  it('keeps a playlist made in the app on this computer, and says why', async () => {
    const { page } = app
    await makePlaylist(page, 'Kept here')
    await page.getByTestId('collection-empty').waitFor()
    await expect
      .poll(() => page.getByTestId('sidebar-collection-item').allTextContents(), { timeout: 10_000 })
      .toEqual(['Kept here'])
    await expect
      .poll(() => page.getByTestId('toast').allTextContents())
      .toContainEqual(expect.stringContaining('cannot keep playlists in your account'))
    const me = await api<{ id: number }>(app, '/connect/status', credential)
    const list = await api<P[]>(app, `/playlist/list?uid=${me.id}`, credential)
    expect(list.map((p) => p.name)).not.toContain('Kept here')
    // No copy to the account is offered now that the source said it cannot, and the sidebar says why.
    await expect
      .poll(() => page.getByTestId('collection-copy-to-account').count(), { timeout: 10_000 })
      .toBe(0)
    await expect
      .poll(() => page.getByTestId('collection-local-note').textContent(), { timeout: 10_000 })
      .toContain('stay on this computer')
  })
})
