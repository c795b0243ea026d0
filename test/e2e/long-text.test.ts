import { mkdir } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RESULTS_DIR, startApp } from './harness'
import type { App } from './harness'

const LONG_TITLE = `${'A very long song title that keeps going '.repeat(5)}and ends here`.slice(0, 190)
const LONG_NAME = 'An artist whose name is far longer than any line can hold '.repeat(2)

/**
 * Long names and long input: a 190-character title on the now-playing screen, a search longer than the
 * data source accepts, and an error nobody expected, each as a person meets them.
 */
describe('Long names, long input and unexpected errors', () => {
  let app: App
  beforeAll(async () => {
    await mkdir(RESULTS_DIR, { recursive: true })
    app = await startApp()
    const invoke = app.core.router.invoke.bind(app.core.router)
    // The data source's songs, as if their names were that long (the reference server's are short).
    const lengthen = (song: {
      name: string
      artists: Array<{ name: string }>
      album?: { name: string }
    }) => ({
      ...song,
      name: LONG_TITLE,
      artists: song.artists.map((a) => ({ ...a, name: LONG_NAME })),
      ...(song.album ? { album: { ...song.album, name: LONG_NAME } } : {}),
    })
    app.core.router.invoke = (async (channel: string, args: unknown, context: { senderUrl: string }) => {
      const result = await invoke(channel, args, context)
      if (!result.ok) return result
      if (channel === 'catalog:recommend-songs') {
        return { ...result, value: (result.value as Parameters<typeof lengthen>[0][]).map(lengthen) }
      }
      if (channel === 'player:resolve') {
        return { ...result, value: lengthen(result.value as Parameters<typeof lengthen>[0]) }
      }
      return result
    }) as typeof app.core.router.invoke
    // Home's songs were asked for while the app started: ask again through the patched door.
    await app.page.reload()
  })
  afterAll(() => app?.close())

  it('shows a 190-character title in two lines at most, and nothing runs under the controls', async () => {
    const page = app.page
    await page.getByTestId('nav-home').click()
    const row = page.getByTestId('home-songs').getByTestId('song-row').first()
    await row.getByTestId('song-name').dblclick()
    await page.getByTestId('player-open-now-playing').click()
    const title = page.getByTestId('now-playing-title')
    await expect.poll(() => title.textContent()).toBe(LONG_TITLE)
    await expect.poll(() => title.getAttribute('title'), { timeout: 10_000 }).toBe(LONG_TITLE)
    const box = await page.evaluate(() => {
      const rect = (sel: string) => document.querySelector(sel)!.getBoundingClientRect()
      const h1 = document.querySelector('[data-testid="now-playing-title"]')!
      const lineHeight = parseFloat(getComputedStyle(h1).lineHeight)
      return {
        lines: Math.round(rect('[data-testid="now-playing-title"]').height / lineHeight),
        textBottom: Math.max(
          rect('.now-playing-song .artists').bottom,
          rect('.now-playing-song .album').bottom,
        ),
        footerTop: rect('[data-testid="now-playing-screen"] footer').top,
      }
    })
    expect(box.lines).toBeLessThanOrEqual(2)
    expect(box.textBottom).toBeLessThanOrEqual(box.footerTop)
    await app.screenshot('ui-now-playing-long-title')
    await page.keyboard.press('Escape')
  })

  it('keeps a search within what the data source accepts: results, not an error that Retry cannot fix', async () => {
    const page = app.page
    await page.getByTestId('nav-search').click()
    const input = page.getByTestId('search-input')
    await input.fill('')
    await input.pressSequentially('x'.repeat(150), { delay: 0 })
    expect((await input.inputValue()).length).toBe(100)
    await page.locator('.search-view .common-state, [data-testid="search-songs"]').first().waitFor()
    await expect.poll(() => page.locator('.search-view [role="alert"]').count(), { timeout: 10_000 }).toBe(0)
  })

  it('says "Something went wrong" in the user\'s words when main fails unexpectedly, details behind a toggle', async () => {
    const page = app.page
    // A bug in main's handler: a plain TypeError thrown where the real router calls it.
    const handlers = app.core.handlers as Record<string, unknown>
    const create = handlers['collection:create']
    handlers['collection:create'] = () => {
      const missing = undefined as unknown as string[]
      return missing.slice(0)
    }
    try {
      await page.getByTestId('nav-home').click()
      await page.getByTestId('collection-new').click()
      await page.getByTestId('collection-name-input').fill('Will fail')
      await page.getByTestId('collection-name-save').click()
      const toast = page.getByTestId('toast').filter({ hasText: 'Something went wrong' })
      await toast.waitFor()
      const line = (await toast.locator('.text > span').textContent())!
      expect(line).toMatch(/^Could not create the playlist/)
      expect(line).not.toMatch(/Cannot read|in the app|collection:create/)
      const details = toast.getByTestId('toast-details')
      await expect.poll(() => details.locator('p').first().isVisible(), { timeout: 10_000 }).toBe(false)
      await details.locator('summary').click()
      await expect.poll(() => details.textContent(), { timeout: 10_000 }).toContain('collection:create')
      await page.keyboard.press('Escape')
    } finally {
      handlers['collection:create'] = create
    }
  })

  it('turns an error thrown inside a click handler into a toast in Chinese, and the window keeps working', async () => {
    const page = app.page
    await page.evaluate(() => window.cadence.invoke('settings:update', { language: 'zh-CN' }))
    await page.locator('html[lang="zh-CN"]').waitFor({ state: 'attached' })
    // A bug in a component's handler: a throw inside Vue's event handling.
    await page.evaluate(() => {
      const app = (
        document.querySelector('#app') as unknown as {
          __vue_app__: { config: { errorHandler?: (e: unknown) => void } }
        }
      ).__vue_app__
      app.config.errorHandler!(new TypeError("Cannot read properties of undefined (reading 'name')"))
    })
    const toast = page.getByTestId('toast').filter({ hasText: '出了点问题' })
    await toast.waitFor()
    await expect.poll(() => toast.textContent(), { timeout: 10_000 }).not.toMatch(/^Cannot read/)
    // An unhandled rejection the same way.
    await page.evaluate(() => void Promise.reject(new Error('boom from a forgotten promise')))
    await expect.poll(() => page.getByTestId('toast').filter({ hasText: '出了点问题' }).count()).toBe(1)
    await page.getByTestId('nav-home').click()
    await page.getByTestId('home-songs').getByTestId('song-row').first().waitFor()
    await page.evaluate(() => window.cadence.invoke('settings:update', { language: 'en' }))
  })
})
