import { mkdir } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RESULTS_DIR, startApp } from './harness'
import type { App } from './harness'
import { shootBothThemes } from './ui-shots'

describe('Settings', () => {
  let app: App
  beforeAll(async () => {
    await mkdir(RESULTS_DIR, { recursive: true })
    app = await startApp()
  })
  afterAll(() => app?.close())

  const theme = () => app.page.evaluate(() => document.documentElement.dataset.theme)

  it('shows the account, data sources and preferences', async () => {
    const page = app.page
    await page.getByTestId('nav-settings').click()
    await expect.poll(() => page.getByTestId('account-name').textContent()).not.toBe('Not signed in')
    await page.getByTestId('source').first().waitFor()
    await expect
      .poll(() => page.getByTestId('source').first().textContent(), { timeout: 10_000 })
      .toContain('Built-in library')
    await shootBothThemes(app, 'ui-settings')
  })

  it('moves focus through every switch with Tab without scrolling the layout', async () => {
    const page = app.page
    // A small window, where the switches lie below the fold of the settings' own scroller.
    await page.setViewportSize({ width: 900, height: 560 })
    await page.getByTestId('nav-settings').click()
    await page.getByRole('switch').first().waitFor({ state: 'attached' })
    await page.getByTestId('nav-settings').focus()
    let switches = 0
    const shifted: string[] = []
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press('Tab')
      const step = await page.evaluate(() => ({
        onSwitch: document.activeElement?.getAttribute('role') === 'switch',
        // Only a scroller (overflow auto or scroll) may move to show the focused control; the page and
        // the elements that clip (the app frame) must not be scrolled by the browser's focus handling.
        shifted: [...document.querySelectorAll('*')]
          .filter((e) => e.scrollTop > 0 && !['auto', 'scroll'].includes(getComputedStyle(e).overflowY))
          .map((e) => `${e.tagName.toLowerCase()} ${e.scrollTop}px`),
      }))
      if (step.onSwitch) switches++
      shifted.push(...step.shifted)
    }
    await page.setViewportSize({ width: 1280, height: 800 })
    expect(switches).toBeGreaterThan(2)
    expect(shifted).toEqual([])
  })

  it('switches the theme live, system following prefers-color-scheme', async () => {
    const page = app.page
    await page.getByRole('radio', { name: 'Dark' }).check({ force: true })
    await expect.poll(theme).toBe('dark')
    await page.getByRole('radio', { name: 'Light' }).check({ force: true })
    await expect.poll(theme).toBe('light')
    await page.getByRole('radio', { name: 'System' }).check({ force: true })
    await page.emulateMedia({ colorScheme: 'dark' })
    await expect.poll(theme).toBe('dark')
    await page.emulateMedia({ colorScheme: 'light' })
    await expect.poll(theme).toBe('light')
    const saved = await page.evaluate(() => window.cadence.invoke('settings:get'))
    expect(saved.theme).toBe('system')
  })

  it('switches the language live', async () => {
    const page = app.page
    await page.getByRole('radio', { name: '简体中文' }).check({ force: true })
    await expect.poll(() => page.getByTestId('nav-home').textContent()).toContain('首页')
    await expect.poll(() => page.locator('h1').first().textContent(), { timeout: 10_000 }).toBe('设置')
    await shootBothThemes(app, 'ui-settings-zh')
    await page.getByRole('radio', { name: 'English' }).check({ force: true })
    await expect.poll(() => page.getByTestId('nav-home').textContent()).toContain('Home')
  })

  it('starts in the language shown last: Chinese from the first paint after a reload', async () => {
    const page = app.page
    await page.getByRole('radio', { name: '简体中文' }).check({ force: true })
    await expect.poll(() => page.getByTestId('nav-home').textContent()).toContain('首页')
    // Note the sidebar's text the first time the reloaded page shows it (before the settings arrive).
    await page.addInitScript(() => {
      const w = window as unknown as { firstNavText?: string }
      const observer = new MutationObserver(() => {
        const text = document.querySelector('[data-testid="nav-home"]')?.textContent?.trim()
        if (!text) return
        w.firstNavText = text
        observer.disconnect()
      })
      observer.observe(document, { childList: true, subtree: true, characterData: true })
    })
    await page.reload()
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { firstNavText?: string }).firstNavText))
      .toContain('首页')
    await page.getByRole('radio', { name: 'English' }).check({ force: true })
    await expect.poll(() => page.getByTestId('nav-home').textContent()).toContain('Home')
  })

  it('changes the preferred quality through settings:update', async () => {
    const page = app.page
    await page.getByRole('radio', { name: 'Lossless' }).check({ force: true })
    await expect
      .poll(() => page.evaluate(() => window.cadence.invoke('settings:get').then((s) => s.quality)))
      .toBe('lossless')
  })

  it('logs out, and the library then asks to log in', async () => {
    const page = app.page
    await page.getByTestId('logout').click()
    await page.getByTestId('sidebar-login').waitFor()
    await page.getByTestId('nav-library').click()
    await page.getByTestId('library-signed-out').waitFor()
    await shootBothThemes(app, 'ui-library-signed-out')
  })
})
