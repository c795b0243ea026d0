import { readFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BundleReport } from '../../tools/bundle-report'
import { startApp } from './harness'
import type { App } from './harness'

/**
 * The built renderer and preload (after `npm run build`): what they carry, and that the renderer still
 * shows its translated text with the runtime-only vue-i18n and precompiled messages under its CSP.
 */

const ROOT = resolve(import.meta.dirname, '../..')
const report = async (part: 'renderer' | 'preload') =>
  JSON.parse(await readFile(join(ROOT, 'out', part, 'bundle-report.json'), 'utf8')) as BundleReport
const bytesFrom = (r: BundleReport, pkg: string) =>
  r.chunks
    .flatMap((c) => Object.entries(c.modules))
    .filter(([id]) => id.startsWith(`node_modules/${pkg}/`))
    .reduce((sum, [, bytes]) => sum + bytes, 0)

describe('the built bundles', () => {
  it('keep zod out of the renderer and the preload', async () => {
    for (const part of ['renderer', 'preload'] as const) {
      const r = await report(part)
      expect(r.chunks.length).toBeGreaterThan(0)
      expect(bytesFrom(r, 'zod'), part).toBe(0)
    }
    // The report does see packages: vue is in the renderer.
    expect(bytesFrom(await report('renderer'), '@vue/runtime-core')).toBeGreaterThan(10_000)
  })

  it('leave out the message compiler (only the small shared helpers vue-i18n imports from it)', async () => {
    // The whole compiler (tokenizer, parser, code generator) is over 20 KB minified.
    expect(bytesFrom(await report('renderer'), '@intlify/message-compiler')).toBeLessThan(4_000)
  })

  it('keep what the first screen does not show out of the initial chunks', async () => {
    // The initial chunks: the entry script and its modulepreloads in index.html.
    const html = await readFile(join(ROOT, 'out/renderer/index.html'), 'utf8')
    const initial = [
      ...html.matchAll(/<script[^>]+src="\.\/([^"]+)"|<link[^>]+rel="modulepreload"[^>]+href="\.\/([^"]+)"/g),
    ].map((m) => m[1] ?? m[2])
    const r = await report('renderer')
    const modules = r.chunks.filter((c) => initial.includes(c.file)).flatMap((c) => Object.keys(c.modules))
    expect(modules.some((id) => id.includes('node_modules/@vue/runtime-core/'))).toBe(true)
    expect(modules.some((id) => id.endsWith('messages/nav.ts?lang=en'))).toBe(true)
    const deferred = [
      /\?lang=zh-CN$/,
      /messages\/settings\.ts\?lang=en$/,
      /NowPlayingScreen\.vue/,
      /MiniPlayer\.vue/,
      /PlayerQueuePanel\.vue/,
      /PlayerSoundPanel\.vue/,
      /messages\/sound\.ts\?lang=en$/,
      /CollectionAddDialog\.vue/,
      /CollectionNameDialog\.vue/,
      /DesktopLyricsApp\.vue/,
      /shared\/lyrics\//,
      // The player (bar, engine, queue, media integration) arrives just after the first paint.
      /NowPlayingBar\.vue/,
      /services\/player\/engine\.ts$/,
      /shared\/player\/queue\.ts$/,
      /composables\/player-startup\.ts$/,
    ]
    for (const pattern of deferred)
      expect(
        modules.filter((id) => pattern.test(id)),
        String(pattern),
      ).toEqual([])
    // Each of them is still built, as a lazy chunk.
    const all = r.chunks.flatMap((c) => Object.keys(c.modules))
    for (const pattern of deferred)
      expect(
        all.some((id) => pattern.test(id)),
        String(pattern),
      ).toBe(true)
  })

  it('ship a CSP without unsafe-eval', async () => {
    const html = await readFile(join(ROOT, 'out/renderer/index.html'), 'utf8')
    const csp = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html)?.[1]
    expect(csp).toContain("script-src 'self'")
    expect(csp).not.toContain('unsafe-eval')
  })
})

describe('translated text with precompiled messages', () => {
  let app: App
  const violations: string[] = []
  beforeAll(async () => {
    app = await startApp()
    app.page.on('console', (m) => {
      if (/Content Security Policy|unsafe-eval|not supported for jit/i.test(m.text()))
        violations.push(m.text())
    })
  })
  afterAll(() => app?.close())

  it('shows messages with and without placeholders', async () => {
    await expect.poll(() => app.page.getByTestId('nav-home').textContent()).toContain('Home')
    const heading = await app.page.locator('h1').first().textContent()
    expect(heading).toMatch(/Good (morning|afternoon|evening)/)
    // A plural message with a named placeholder (`common.songs`) on the playlist cards.
    await app.page.getByTestId('playlist-card').first().waitFor()
    const cards = await app.page.getByTestId('playlist-card').allTextContents()
    expect(cards.join(' ')).toMatch(/\d+ songs/)
    expect(violations).toEqual([])
  })

  it('loads the player after the shell in the main window, and never in the QR login window', async () => {
    const scripts = () =>
      app.page.evaluate(() =>
        performance
          .getEntriesByType('resource')
          .map((entry) => entry.name)
          .filter((name) => name.endsWith('.js')),
      )
    await app.page.getByTestId('now-playing').waitFor()
    expect((await scripts()).some((name) => /\/PlayerDock-[^/]+\.js$/.test(name))).toBe(true)

    await app.page.goto('about:blank')
    await app.page.goto(`${app.appUrl}/index.html#/login`)
    await app.page.getByTestId('qr-panel').waitFor()
    expect(await scripts()).not.toEqual([])
    expect((await scripts()).filter((name) => /\/(PlayerDock|player)-[^/]+\.js$/.test(name))).toEqual([])
    await expect.poll(() => app.page.getByTestId('now-playing').count(), { timeout: 10_000 }).toBe(0)
  })
})
