import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { launchApp } from './harness'
import type { StandInApp } from './harness'

/**
 * The private session in the built app under the stand-in Electron: the account settings' switch and the
 * tray's item are one state (main's), each following the other; and it ends when Cadence quits, as the
 * switch says (the next start records again).
 */

type MenuItem = { id?: string; label?: string }
const privateItem = (menu: unknown) => (menu as MenuItem[]).find((entry) => entry.id === 'private-session')

describe('the private session in the app', () => {
  const running: StandInApp[] = []
  let home: string
  afterEach(async () => {
    for (const app of running.splice(0)) await app.close({ keepHome: true })
    await rm(home, { recursive: true, force: true })
  })

  /** The main window's page; the start is given longer than the harness's 45 s (a busy machine). */
  async function mainPage(app: StandInApp) {
    await app.waitFor(
      'window-loaded',
      (d) => !String((d as { url: string }).url).includes('#/login'),
      150_000,
    )
    return app.mainPage()
  }
  const toggle = (page: Page) => page.getByTestId('settings-private-session')
  async function openAccount(page: Page) {
    await page.getByTestId('playlist-card').first().waitFor({ timeout: 60_000 })
    await page.getByTestId('nav-settings').click()
    await toggle(page).waitFor({ state: 'attached' })
  }

  it('the account switch and the tray agree, and the session ends when Cadence quits', async () => {
    home = await mkdtemp(join(tmpdir(), 'cadence-private-'))
    const first = await launchApp({ home })
    running.push(first)
    const page = await mainPage(first)
    await openAccount(page)
    await expect.poll(() => toggle(page).isChecked()).toBe(false)
    // The switch says the session does not outlive the app.
    expect(await page.getByText('It ends when you quit Cadence.').count()).toBeGreaterThan(0)

    // On from the account settings: the tray offers to end it.
    let before = first.records.length
    await page.locator('label', { has: toggle(page) }).click()
    await first.waitFor(
      'tray-menu',
      (menu, index) => index >= before && privateItem(menu)?.label === 'End private session',
      20_000,
    )
    // Off from the tray: the switch follows.
    before = first.records.length
    first.send({ type: 'tray-click', id: 'private-session' })
    await expect.poll(() => toggle(page).isChecked(), { timeout: 20_000 }).toBe(false)
    await first.waitFor(
      'tray-menu',
      (menu, index) => index >= before && privateItem(menu)?.label === 'Start private session',
      20_000,
    )
    // On from the tray: the switch follows again.
    first.send({ type: 'tray-click', id: 'private-session' })
    await expect.poll(() => toggle(page).isChecked(), { timeout: 20_000 }).toBe(true)
    expect(await page.evaluate(() => window.cadence.invoke('history:state'))).toMatchObject({ private: true })

    expect(await first.quit()).toBe(0)
    const again = await launchApp({ home })
    running.push(again)
    const restarted = await mainPage(again)
    await openAccount(restarted)
    expect(await restarted.evaluate(() => window.cadence.invoke('history:state'))).toMatchObject({
      private: false,
    })
    await expect.poll(() => toggle(restarted).isChecked()).toBe(false)
    await again.waitFor('tray-menu', (menu) => privateItem(menu)?.label === 'Start private session', 20_000)
  }, 600_000)
})
