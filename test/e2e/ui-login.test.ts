import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { startDataSource } from '@server/index'
import type { DataSourceHandle } from '@server/index'
import { RESULTS_DIR, startApp } from './harness'
import type { App } from './harness'
import { shootBothThemes } from './ui-shots'
import { LOGIN_WINDOW_CONTENT } from '@main/core/app/window-state'
import { OWNER_PASSPHRASE } from '../support/phone'
import * as phone from '../support/phone'

/** QR login through the UI against a remote data source, confirmed from the server's phone page. */
describe('QR login view', () => {
  let app: App
  let server: DataSourceHandle
  let dataDir: string

  beforeAll(async () => {
    await mkdir(RESULTS_DIR, { recursive: true })
    dataDir = await mkdtemp(join(tmpdir(), 'cadence-e2e-ui-login-'))
    server = await startDataSource({
      ownerPassphrase: OWNER_PASSPHRASE,
      dataDir,
      port: 0,
      demo: 80,
      ownerName: 'Mei 林',
    })
    app = await startApp({ sourceUrl: server.url })
  })
  afterAll(async () => {
    await app?.close()
    await server?.close()
    await rm(dataDir, { recursive: true, force: true })
  })

  async function loginWindow(): Promise<Page> {
    await expect.poll(() => app.loginPage()?.url() ?? '', { timeout: 10_000 }).toContain('#/login')
    const login = app.loginPage()!
    await login.getByTestId('qr-panel').waitFor()
    return login
  }
  /** The phone: opening the page marks the code scanned, the form confirms it. */
  async function confirmOnPhone(login: Page) {
    const img = login.getByTestId('qr-image')
    await img.waitFor()
    const qrurl = (await img.getAttribute('data-qrurl'))!
    await expect.poll(() => img.getAttribute('src'), { timeout: 10_000 }).toMatch(/^data:image\/png;base64,/)
    expect((await fetch(qrurl)).status).toBe(200)
    // The data source is on 127.0.0.1, so the status speaks of the sign-in page, not of a phone.
    await expect
      .poll(() => login.getByTestId('qr-status').textContent(), { timeout: 10_000 })
      .toContain('confirm there')
    // The login window's page size: the scanned card fits it whole, nothing scrolls or is cut off.
    await login.setViewportSize({ ...LOGIN_WINDOW_CONTENT })
    const fit = await login.evaluate(() => ({
      bottom: document.querySelector('[data-testid="qr-panel"]')!.getBoundingClientRect().bottom,
      scroll: document.documentElement.scrollHeight,
    }))
    expect(fit.bottom).toBeLessThanOrEqual(LOGIN_WINDOW_CONTENT.height)
    expect(fit.scroll).toBeLessThanOrEqual(LOGIN_WINDOW_CONTENT.height)
    await login.setViewportSize({ width: 520, height: 560 })
    await login.screenshot({ path: join(RESULTS_DIR, 'ui-login-scanned.png') })
    const confirm = await phone.confirmOnPhone(qrurl)
    expect(confirm.status).toBe(200)
  }

  it('opens signed out: the library asks to log in', async () => {
    const page = app.page
    await page.getByTestId('sidebar-login').waitFor()
    await page.getByTestId('nav-library').click()
    await page.getByTestId('library-signed-out').waitFor()
    await shootBothThemes(app, 'ui-signed-out')
  })

  it('logs in by scanning the code, then shows the user and their playlists', async () => {
    const page = app.page
    await page.getByTestId('library-signed-out').getByRole('button', { name: 'Log in' }).click()
    const login = await loginWindow()
    // The data source is on 127.0.0.1: the window says no phone reaches it and offers this computer.
    await expect
      .poll(() => login.getByTestId('qr-local').textContent(), { timeout: 10_000 })
      .toContain('on this computer')
    await expect.poll(() => login.textContent('body'), { timeout: 10_000 }).not.toMatch(/app on your phone/)
    await login.setViewportSize({ width: 520, height: 560 })
    await login.getByTestId('qr-image').waitFor()
    await login.screenshot({ path: join(RESULTS_DIR, 'ui-login-waiting.png') })
    await confirmOnPhone(login)

    await expect
      .poll(() => page.getByTestId('sidebar-account').textContent(), { timeout: 15_000 })
      .toContain('Mei 林')
    // The main window stayed on the Library, which now shows the user's playlists.
    expect(page.url()).toContain('#/library')
    await page.getByTestId('playlist-card').first().waitFor()
    await expect.poll(() => app.loginPage()).toBeUndefined()
    await shootBothThemes(app, 'ui-library-signed-in')
  })

  it('asks to log in again when the session expires, and stays on the view after logging in', async () => {
    const page = app.page
    await page.getByTestId('nav-home').click()
    const heart = page.getByTestId('home-songs').getByTestId('like-button').first()
    await heart.waitFor()
    server.expireCredentials()
    await heart.click()
    const banner = page.getByTestId('session-expired')
    await banner.waitFor({ timeout: 10_000 })
    await expect.poll(() => banner.textContent(), { timeout: 10_000 }).toContain('signed out — log in again')
    await shootBothThemes(app, 'ui-session-expired')

    await banner.getByRole('button', { name: 'Log in' }).click()
    await confirmOnPhone(await loginWindow())
    await banner.waitFor({ state: 'detached', timeout: 15_000 })
    expect(page.url()).toMatch(/#\/$/)
  })

  it('logs out from Settings', async () => {
    const page = app.page
    await page.getByTestId('nav-settings').click()
    await page.getByTestId('logout').click()
    await page.getByTestId('sidebar-login').waitFor()
    await expect
      .poll(() => page.getByTestId('account-name').textContent(), { timeout: 10_000 })
      .toBe('Not signed in')
  })

  it('says clearly when the data source cannot be reached', async () => {
    await server.close()
    await app.page.getByTestId('sidebar-login').click()
    const login = await loginWindow()
    await expect
      .poll(() => login.getByTestId('qr-status').textContent(), { timeout: 15_000 })
      .toContain('cannot be reached')
    await login.screenshot({ path: join(RESULTS_DIR, 'ui-login-error.png') })
  })
})
