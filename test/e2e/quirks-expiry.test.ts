import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { startDataSource } from '@server/index'
import type { DataSourceHandle } from '@server/index'
import { RESULTS_DIR, startApp } from './harness'
import type { App } from './harness'
import { OWNER_PASSPHRASE } from '../support/phone'
import * as phone from '../support/phone'
import { startQuirkProxy } from '../support/quirk-proxy'
import type { QuirkProfile, QuirkProxy } from '../support/quirk-proxy'

/**
 * An expired login on servers that never answer 401, through the real renderer: a NeteaseMusicAdapter-like
 * server (`-1 服务器内部错误`, HTTP 200) and a QMusicAdapter-like one (`-1 搜索失败…`, plain HTTP 500).
 * The app notices, offers the login window, and after logging in the user is where they were.
 */
describe.each<QuirkProfile>(['netease', 'qq'])('expired login on a %s-like data source', (profile) => {
  let server: DataSourceHandle
  let proxy: QuirkProxy
  let app: App
  let dataDir: string

  beforeAll(async () => {
    await mkdir(RESULTS_DIR, { recursive: true })
    dataDir = await mkdtemp(join(tmpdir(), `cadence-e2e-quirks-${profile}-`))
    server = await startDataSource({
      ownerPassphrase: OWNER_PASSPHRASE,
      dataDir,
      port: 0,
      demo: 80,
      ownerName: 'Quirk Owner',
    })
    // NeteaseMusicAdapter reads the user's liked songs by uid for every song detail.
    proxy = await startQuirkProxy(server.url, profile, { requireUid: profile === 'netease' })
    app = await startApp({ sourceUrl: proxy.url })
  })
  afterAll(async () => {
    await app?.close()
    await proxy?.close()
    await server?.close()
    await rm(dataDir, { recursive: true, force: true })
  })

  async function logInThroughWindow(open: () => Promise<void>) {
    await open()
    await expect.poll(() => app.loginPage()?.url() ?? '', { timeout: 10_000 }).toContain('#/login')
    const login: Page = app.loginPage()!
    const img = login.getByTestId('qr-image')
    await img.waitFor()
    const confirmed = await phone.confirmOnPhone((await img.getAttribute('data-qrurl'))!)
    expect(confirmed.status).toBe(200)
    await expect
      .poll(() => app.page.getByTestId('sidebar-account').textContent(), { timeout: 15_000 })
      .toContain('Quirk Owner')
    await expect.poll(() => app.loginPage(), { timeout: 10_000 }).toBeUndefined()
  }

  if (profile === 'netease') {
    it('says plainly that this server plays only for signed-in users when playing signed out', async () => {
      const page = app.page
      const row = page.getByTestId('home-songs').getByTestId('song-row').first()
      await row.waitFor()
      await row.getByTestId('song-name').dblclick()
      const notice = page.getByTestId('player-notice')
      await notice.waitFor({ timeout: 10_000 })
      await expect
        .poll(() => notice.textContent(), { timeout: 10_000 })
        .toContain('This data source plays songs only for signed-in users')
      await expect
        .poll(() => page.locator('body').textContent(), { timeout: 10_000 })
        .not.toContain('服务器内部错误')
      await app.screenshot(`quirks-${profile}-play-signed-out`)
      await notice.getByRole('button').click()
    })
  }

  it('logs in through the QR window', async () => {
    await app.page.getByTestId('sidebar-login').waitFor()
    await logInThroughWindow(() => app.page.getByTestId('sidebar-login').click())
  })

  if (profile === 'netease') {
    it('a like refused with "-1 服务器内部错误" after the session is gone offers the login, then Home is back', async () => {
      const page = app.page
      await page.getByTestId('nav-home').click()
      const heart = page.getByTestId('home-songs').getByTestId('like-button').first()
      await heart.waitFor()
      const checks = proxy.hits.get('/connect/status') ?? 0
      server.expireCredentials()
      await heart.click()
      const banner = page.getByTestId('session-expired')
      await banner.waitFor({ timeout: 10_000 })
      await expect
        .poll(() => banner.textContent(), { timeout: 10_000 })
        .toContain('signed out — log in again')
      // The server's own words never reach the screen as if they meant something.
      await expect
        .poll(() => page.locator('body').textContent(), { timeout: 10_000 })
        .not.toContain('服务器内部错误')
      expect((proxy.hits.get('/connect/status') ?? 0) - checks).toBeGreaterThanOrEqual(1)
      await app.screenshot(`quirks-${profile}-expired`)

      await logInThroughWindow(() => banner.getByRole('button', { name: 'Log in' }).click())
      await banner.waitFor({ state: 'detached', timeout: 15_000 })
      expect(page.url()).toMatch(/#\/$/)
      await page.getByTestId('home-songs').getByTestId('like-button').first().waitFor()
      // Signed in again, the like goes through.
      await page.getByTestId('home-songs').getByTestId('like-button').first().click()
      await expect.poll(() => page.getByTestId('session-expired').count(), { timeout: 5_000 }).toBe(0)
    })
  } else {
    it('a search refused with "-1 搜索失败" after the session is gone offers the login, then the search is back', async () => {
      const page = app.page
      await page.getByTestId('nav-search').click()
      const input = page.getByTestId('search-input')
      await input.fill('a')
      await page.getByTestId('search-songs').getByTestId('song-row').first().waitFor()

      server.expireCredentials()
      await input.fill('e')
      const banner = page.getByTestId('session-expired')
      await banner.waitFor({ timeout: 10_000 })
      const state = page.locator('.search-view [role="alert"]')
      await state.waitFor()
      await expect
        .poll(() => state.textContent(), { timeout: 10_000 })
        .toContain('You were signed out — log in again.')
      await expect
        .poll(() => page.locator('body').textContent(), { timeout: 10_000 })
        .not.toContain('搜索失败')
      await app.screenshot(`quirks-${profile}-expired`)

      await logInThroughWindow(() => state.getByRole('button', { name: 'Log in' }).click())
      await banner.waitFor({ state: 'detached', timeout: 15_000 })
      expect(page.url()).toContain('#/search')
      // The failed search runs again by itself.
      await page.getByTestId('search-songs').getByTestId('song-row').first().waitFor({ timeout: 10_000 })
      await expect.poll(() => input.inputValue(), { timeout: 10_000 }).toBe('e')
    })
  }
})
