import { readFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BundleReport } from '../../tools/bundle-report'
import { initialJavaScriptGzipped } from '../bench/app'
import { startApp } from './harness'
import type { App } from './harness'

/**
 * The start budget of the built renderer (after `npx electron-vite build`): what loads before Home, and
 * that the frame's lazy parts (the sidebar's playlists, the player bar) still show their text, never a
 * message key, when the views' English arrives after them.
 */

const ROOT = resolve(import.meta.dirname, '../..')

async function initialModules(): Promise<string[]> {
  const html = await readFile(join(ROOT, 'out/renderer/index.html'), 'utf8')
  const initial = [
    ...html.matchAll(/<script[^>]+src="\.\/([^"]+)"|<link[^>]+rel="modulepreload"[^>]+href="\.\/([^"]+)"/g),
  ].map((m) => m[1] ?? m[2])
  const report = JSON.parse(
    await readFile(join(ROOT, 'out/renderer/bundle-report.json'), 'utf8'),
  ) as BundleReport
  return report.chunks.filter((c) => initial.includes(c.file)).flatMap((c) => Object.keys(c.modules))
}

describe('the renderer start budget', () => {
  it("keeps the renderer's initial JavaScript within 80 KB gzipped", async () => {
    expect(await initialJavaScriptGzipped()).toBeLessThanOrEqual(80 * 1024)
  })

  it("keeps the sidebar's playlists and the text of the player and the overlays out of the initial chunks", async () => {
    const modules = await initialModules()
    expect(modules.some((id) => id.endsWith('messages/nav.ts?lang=en'))).toBe(true)
    for (const pattern of [
      /CollectionSidebar\.vue/,
      /composables\/collect\.ts$/,
      /stores\/account-playlists\.ts$/,
      /messages\/collection\.ts\?lang=en$/,
      /messages\/player\.ts\?lang=en$/,
      /messages\/listening\.ts\?lang=en$/,
      /messages\/nowPlaying\.ts\?lang=en$/,
      /node_modules\/chart\.js\//,
    ])
      expect(
        modules.filter((id) => pattern.test(id)),
        String(pattern),
      ).toEqual([])
  })
})

describe('the frame with the views English arriving late', () => {
  let app: App
  beforeAll(async () => {
    app = await startApp()
  })
  afterAll(() => app?.close())

  it('shows the sidebar playlists and the player bar with their text, never a message key', async () => {
    const page = app.page
    // The views' English arrives late, as on a slow disk or a busy machine.
    await page.route(/\/messages-en-[^/]+\.js$/, async (route) => {
      await new Promise((done) => setTimeout(done, 600))
      await route.continue()
    })
    await page.goto('about:blank')
    await page.goto(`${app.appUrl}/index.html#/`)
    const playlists = page.getByTestId('sidebar-collection')
    await playlists.waitFor({ state: 'attached' })
    // From its first render on, the sidebar's playlists have their English.
    const sidebar = page.locator('.collection-sidebar')
    expect(await sidebar.textContent()).toContain('Your playlists')
    expect(await sidebar.getByTestId('collection-new').getAttribute('title')).toBe('New playlist')
    const bar = page.getByTestId('now-playing')
    await bar.waitFor()
    expect(await bar.getByTestId('player-lyrics').getAttribute('title')).toBe('Lyrics')
    await expect.poll(() => page.getByTestId('playlist-card').count(), { timeout: 10_000 }).toBeGreaterThan(0)
  })
})
