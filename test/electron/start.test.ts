import { relative } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { ROOT, isPackagedFile, launchApp } from './harness'
import type { StandInApp } from './harness'
import { audioState, playRow, title, waitForClock } from '../e2e/playback-support'

type MenuItem = { id?: string; label?: string; enabled?: boolean }
const lastMenu = (app: StandInApp) => app.all('tray-menu').at(-1) as MenuItem[] | undefined
const item = (menu: MenuItem[] | undefined, id: string) => menu?.find((entry) => entry.id === id)

describe('the built app under the stand-in Electron: a fresh start', () => {
  let app: StandInApp
  let page: Page
  beforeAll(async () => {
    app = await launchApp()
    page = await app.mainPage()
  })
  afterAll(() => app?.close())

  it('opens Home with the built-in data source, signed in, in a separate development userData', async () => {
    await page.getByTestId('playlist-card').first().waitFor()
    expect(app.all('utility-fork')).toHaveLength(1)
    expect(app.all('error-box')).toEqual([])
    expect(app.all('set-path')).toContainEqual({ name: 'userData', path: app.userData('Cadence-dev') })
  })

  it('starts with a clean renderer console: no error, no warning, no CSP report', async () => {
    await page.getByTestId('playlist-card').first().waitFor()
    const noisy = app
      .all('console')
      .filter((entry) => ['error', 'warning'].includes((entry as { type: string }).type))
    expect(noisy).toEqual([])
    expect(app.all('page-error')).toEqual([])
  })

  it('takes no global media keys (the media session has them), only the desktop-lyrics toggle, and sends frame-ancestors as a header', () => {
    const accelerators = app.all('shortcut-registered') as string[]
    expect(accelerators).toEqual(['CommandOrControl+Alt+L'])
    expect(accelerators.some((key) => /^Media/.test(key))).toBe(false)
    expect(app.all('session')).toContainEqual({ name: 'webRequest.onHeadersReceived', args: ['function'] })
  })

  it('carries a typed error kind through the built preload as data', async () => {
    const reason = await page.evaluate(() =>
      window.cadence.invoke('catalog:playlist', { id: 987_654_321 }).then(
        () => null,
        (e: unknown) => JSON.parse(JSON.stringify(e)) as unknown,
      ),
    )
    expect(reason).toMatchObject({ name: 'DataSourceError' })
    expect((reason as { kind: string }).kind).not.toBe('internal')
  })

  it("copies a song's link to the system clipboard through main, and keeps the user's playlists in the store", async () => {
    await page
      .getByTestId('home-songs')
      .getByTestId('song-row')
      .first()
      .getByTestId('song-name')
      .click({ button: 'right' })
    await page.locator('[data-menu-item="copy-link"]').click()
    const { data } = await app.waitFor('clipboard-write')
    expect(data).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/song\/detail\?id=.+$/)
    const made = await page.evaluate(() => window.cadence.invoke('collection:create', { name: 'Stand-in' }))
    expect(made).toMatchObject({ name: 'Stand-in', size: 0 })
    await page.getByTestId('sidebar-collection-item').filter({ hasText: 'Stand-in' }).waitFor()
  })

  it('shows the tray icon from a file electron-builder packages', async () => {
    const { data } = await app.waitFor('tray-created')
    const icon = data as { icon: string; empty: boolean }
    expect(icon.empty).toBe(false)
    expect(isPackagedFile(relative(ROOT, icon.icon))).toBe(true)
    expect(item(lastMenu(app), 'play-pause')).toMatchObject({ label: 'Play', enabled: false })
  })

  it('plays a song from a playlist; the tray menu follows play and pause', async () => {
    await page.getByTestId('playlist-card').first().click()
    await page.getByTestId('playlist-name').waitFor()
    const media: string[] = []
    page.on('request', (request) => void (request.resourceType() === 'media' && media.push(request.url())))
    const name = await playRow(page, page.locator('main [data-testid="song-row"]:not([aria-disabled])'), 0)
    await waitForClock(page, 0.5)
    expect(await title(page)).toBe(name)
    // The audio came from main's privileged scheme (protocol.handle), never from the data source's URL.
    expect(app.all('protocol-privileged')).toEqual([
      [
        {
          scheme: 'cadence-media',
          privileges: {
            standard: true,
            secure: true,
            stream: true,
            supportFetchAPI: true,
            corsEnabled: true,
          },
        },
      ],
    ])
    expect(app.all('protocol-handle')).toMatchObject([{ scheme: 'cadence-media' }])
    expect((await audioState(page)).src).toMatch(/^cadence-media:\/\/song\//)
    const served = app.all('protocol-request') as Array<{ url: string; range?: string; status: number }>
    expect(served.length).toBeGreaterThan(0)
    // Songs, and the cover whose pixels the tint reads through main; nothing else.
    expect(served.filter((request) => !/^cadence-media:\/\/(song|cover)\//.test(request.url))).toEqual([])
    expect(served.filter((request) => request.status !== 200 && request.status !== 206)).toEqual([])
    expect(served.some((request) => request.range?.startsWith('bytes='))).toBe(true)
    expect(media.filter((url) => !url.startsWith('cadence-media://song/'))).toEqual([])

    await app.waitFor('tray-menu', (menu) => item(menu as MenuItem[], 'play-pause')?.label === 'Pause')
    expect(item(lastMenu(app), 'now-playing')?.label).toContain(name)

    // The tray's Pause reaches the renderer's player through main. Count the records before the click:
    // the menu saying Play may be recorded before the page is seen paused.
    const before = app.records.length
    app.send({ type: 'tray-click', id: 'play-pause' })
    await page.waitForFunction(
      () => (document.querySelector('[data-testid="player-audio"]') as HTMLAudioElement).paused,
    )
    expect((await audioState(page)).paused).toBe(true)
    await app.waitFor(
      'tray-menu',
      (menu, index) => index >= before && item(menu as MenuItem[], 'play-pause')?.label === 'Play',
    )
  })
})
