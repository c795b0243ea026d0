import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDataSource } from '@server/index'
import type { DataSourceHandle } from '@server/index'
import { RESULTS_DIR, startApp } from './harness'
import type { App } from './harness'
import { OWNER_PASSPHRASE } from '../support/phone'

/**
 * A data source added as http://127.0.0.1:…: its QR code leads to a page no phone can open, so the login
 * window offers to open the sign-in page on this computer, in the default browser, and signing in there works.
 */
describe('Login to a data source on this computer', () => {
  let app: App
  let server: DataSourceHandle
  let dataDir: string

  beforeAll(async () => {
    await mkdir(RESULTS_DIR, { recursive: true })
    dataDir = await mkdtemp(join(tmpdir(), 'cadence-e2e-local-'))
    server = await startDataSource({ ownerPassphrase: OWNER_PASSPHRASE, dataDir, port: 0, demo: 20 })
    app = await startApp({ sourceUrl: server.url })
  })
  afterAll(async () => {
    await app?.close()
    await server?.close()
    await rm(dataDir, { recursive: true, force: true })
  })

  it('opens the sign-in page in the browser and signs in from there', async () => {
    const page = app.page
    await page.getByTestId('sidebar-login').click()
    await expect.poll(() => app.loginPage()?.url() ?? '').toContain('#/login')
    const login = app.loginPage()!
    await login.getByTestId('qr-image').waitFor()
    const qrurl = (await login.getByTestId('qr-image').getAttribute('data-qrurl'))!
    await expect
      .poll(() => login.getByTestId('qr-local').textContent(), { timeout: 10_000 })
      .toMatch(/on this computer/)
    await login.screenshot({ path: join(RESULTS_DIR, 'ui-login-local.png') })
    await login.getByTestId('qr-open-here').click()
    await expect.poll(() => app.opened).toEqual([qrurl])
    // The page is open in the browser: the code and the phone are gone from the window.
    await login.getByTestId('qr-page-icon').waitFor()
    expect(await login.getByTestId('qr-image').count()).toBe(0)
    expect(await login.getByTestId('qr-status').textContent()).not.toMatch(/phone/i)

    // The default browser: a tab of its own that opens the page and submits the form.
    const browser = await app.browser.newContext()
    const tab = await browser.newPage()
    await tab.goto(app.opened[0])
    await tab.locator('#passphrase').fill(OWNER_PASSPHRASE)
    await tab.locator('button[value="confirm"]').click()
    await expect.poll(() => tab.locator('h1').textContent()).toBe('Done')
    await browser.close()
    await expect
      .poll(() => page.getByTestId('sidebar-account').textContent(), { timeout: 15_000 })
      .toBeTruthy()
    await expect.poll(() => app.loginPage()).toBeUndefined()
  })
})
