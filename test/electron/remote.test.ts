import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { startDataSource } from '@server/index'
import type { DataSourceHandle } from '@server/index'
import { launchApp } from './harness'
import type { StandInApp } from './harness'
import { startFaultProxy } from '../support/fault-proxy'
import type { FaultProxy } from '../support/fault-proxy'
import { OWNER_PASSPHRASE, confirmOnPhone } from '../support/phone'
import { title } from '../e2e/playback-support'

/**
 * The built app under the stand-in Electron against a data source on the network (the reference server
 * behind a proxy that can refuse one song): signing in through the QR window, a song whose URL the
 * server refuses, and a login that expires. Every error crosses the built preload as Electron copies it.
 */
describe('the built app under the stand-in Electron: a data source on the network', () => {
  let app: StandInApp
  let page: Page
  let server: DataSourceHandle
  let proxy: FaultProxy
  let dataDir: string

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'cadence-standin-remote-'))
    server = await startDataSource({ ownerPassphrase: OWNER_PASSPHRASE, dataDir, port: 0, demo: 80 })
    proxy = await startFaultProxy(server.url)
    app = await launchApp()
    page = await app.mainPage()
    await page.getByTestId('playlist-card').first().waitFor()
    await page.evaluate(async (url) => {
      const added = await window.cadence.invoke('sources:add', { url, name: 'Home server' })
      await window.cadence.invoke('sources:activate', { id: added.id })
    }, proxy.url)
  })
  afterAll(async () => {
    await app?.close()
    await proxy?.close()
    await server?.close()
    if (dataDir) await rm(dataDir, { recursive: true, force: true })
  })

  /** Scans the code in the login window with the owner's phone; the window closes when signed in. */
  async function signInThroughQrWindow() {
    const login = await app.loginPage()
    const image = login.getByTestId('qr-image')
    await image.waitFor()
    const qrurl = (await image.getAttribute('data-qrurl'))!
    expect((await confirmOnPhone(qrurl)).status).toBe(200)
    await expect.poll(() => login.isClosed(), { timeout: 15_000 }).toBe(true)
  }

  it('signs in through the QR login window', async () => {
    await page.getByTestId('sidebar-login').click()
    await signInThroughQrWindow()
    await expect
      .poll(() => page.getByTestId('sidebar-account').textContent(), { timeout: 15_000 })
      .not.toContain('Log in')
  })

  it('skips a song whose URL the server refuses, with the reason it gave, and plays the next', async () => {
    await page.getByTestId('nav-home').click()
    await page.getByTestId('playlist-card').first().click()
    // Home has song rows of its own: use rows only once the playlist's page is there.
    await page.getByTestId('playlist-name').waitFor()
    const rows = page.locator('main [data-testid="song-row"]:not([aria-disabled])')
    await rows.nth(1).waitFor()
    const [refused, next] = await Promise.all([
      rows.nth(0).getByTestId('song-name').innerText(),
      rows.nth(1).getByTestId('song-name').innerText(),
    ])
    // The store may still be publishing this list's rows when the first ones are on screen: ask until it has.
    const idOf = (name: string) =>
      page.evaluate((n) => {
        const root = document.querySelector('#app') as unknown as {
          __vue_app__: { config: { globalProperties: { $pinia: { _s: Map<string, unknown> } } } }
        }
        const store = root.__vue_app__.config.globalProperties.$pinia._s.get('playlist') as {
          rows: Array<{ id: number | string; name: string } | undefined>
        }
        return store.rows.find((song) => song?.name === n)?.id
      }, name)
    await expect.poll(() => idOf(refused), { timeout: 10_000 }).toBeDefined()
    const refusedId = await idOf(refused)
    proxy.set(`/song/url?id=${refusedId}`, { refuse: '暂无版权' })
    proxy.set(`/song/detail?id=${refusedId}`, { refuse: '暂无版权' })

    // Signed in (the refusal means "no rights to this song", not "log in first"): under load the
    // sign-in's own status check can still be on its way when this test starts.
    await expect
      .poll(() => page.evaluate(() => window.cadence.invoke('auth:status').then((s) => s.status)), {
        timeout: 15_000,
      })
      .toBe('signed-in')
    await rows.nth(0).getByTestId('song-name').dblclick()
    const notice = page.getByTestId('player-notice')
    await notice.waitFor({ timeout: 30_000 })
    expect(await notice.textContent()).toContain(`Skipped “${refused}”: 暂无版权`)
    await page.getByTestId('player-title').getByText(next, { exact: true }).waitFor({ timeout: 30_000 })
    expect(await title(page)).toBe(next)
    proxy.clear()
  })

  it('asks to log in again when the login expires, and is back on the view after signing in', async () => {
    await page.getByTestId('nav-home').click()
    const heart = page.getByTestId('home-songs').getByTestId('like-button').first()
    await heart.waitFor()
    server.expireCredentials()
    await heart.click()
    const banner = page.getByTestId('session-expired')
    await banner.waitFor({ timeout: 15_000 })
    expect(await banner.textContent()).toContain('log in again')

    await banner.getByRole('button', { name: 'Log in' }).click()
    await signInThroughQrWindow()
    await banner.waitFor({ state: 'detached', timeout: 15_000 })
    expect(page.url()).toMatch(/#\/$/)
    expect(app.all('page-error')).toEqual([])
  })
})
