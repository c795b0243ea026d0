import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { launchApp } from '../electron/harness'
import type { StandInApp } from '../electron/harness'
import { title, waitForClock } from '../e2e/playback-support'
import { APP_ASAR, EXECUTABLE, insideArchive, openAppArchive } from './package-files'

/**
 * The package as a user gets it: `dist/stand-in/linux-unpacked/cadence` started with no arguments. Its
 * launcher runs the stand-in Electron on `resources/app.asar` with Electron's asar rules
 * (test/electron/stand-in/asar-rules.ts): nothing of the working tree is on the app's path.
 */
describe('the installed app, started from its package', () => {
  let app: StandInApp
  let page: Page
  beforeAll(async () => {
    // A packaged app ignores a development server's address; it loads its own files.
    app = await launchApp({ executable: EXECUTABLE, env: { ELECTRON_RENDERER_URL: 'http://127.0.0.1:9/' } })
    page = await app.mainPage()
  })
  afterAll(() => app?.close())

  it('opens Home signed in to the built-in data source, run from app.asar, with a clean console', async () => {
    await page.getByTestId('playlist-card').first().waitFor()
    expect(app.all('error-box')).toEqual([])
    // Installed: the app keeps its settings in userData itself (a development build adds "-dev").
    expect(app.all('set-path')).toEqual([])
    expect(existsSync(join(app.userData('Cadence'), 'cadence.json'))).toBe(true)
    const [fork] = app.all('utility-fork') as Array<{ modulePath: string }>
    expect(insideArchive(fork.modulePath)?.inner).toBe('out/main/data-source.js')
    const noisy = app
      .all('console')
      .filter((entry) => ['error', 'warning'].includes((entry as { type: string }).type))
    expect(noisy).toEqual([])
    expect(app.all('page-error')).toEqual([])
  })

  it('loads the renderer from inside app.asar (nothing of it unpacked)', async () => {
    const loaded = app.all('window-loaded') as Array<{ url: string }>
    const main = loaded.find((entry) => !entry.url.includes('#/login'))!
    expect(insideArchive(fileURLToPath(main.url.replace(/#.*$/, '')))?.inner).toBe('out/renderer/index.html')
    expect(await page.evaluate(() => location.pathname)).toBe(`${APP_ASAR}/out/renderer/index.html`)
    // The stylesheet and the scripts came from the archive too: the view is styled and running.
    const rules = await page.evaluate(() =>
      [...document.styleSheets].reduce((count, sheet) => count + sheet.cssRules.length, 0),
    )
    expect(rules).toBeGreaterThan(0)
    const unpacked = [...openAppArchive().files()].filter(([, file]) => file.unpacked).map(([path]) => path)
    expect(unpacked.filter((path) => path.startsWith('out/renderer/'))).toEqual([])
  })

  it('shows the tray icon and the window icon from the package', async () => {
    const { data } = await app.waitFor('tray-created')
    const tray = data as { icon: string; empty: boolean }
    expect(tray.empty).toBe(false)
    expect(insideArchive(tray.icon)?.inner).toBe('resources/icon.png')
    const [window] = app.all('window-created') as Array<{ icon?: { path: string; empty: boolean } }>
    expect(window.icon?.empty).toBe(false)
    expect(insideArchive(window.icon!.path)?.inner).toBe('resources/icon.png')
  })

  it('plays a song, made by the synthesis worker started from app.asar.unpacked (not inline)', async () => {
    await page.getByTestId('playlist-card').first().click()
    await page.getByTestId('playlist-name').waitFor()
    const rows = page.locator('main [data-testid="song-row"]:not([aria-disabled])')
    await rows.nth(0).waitFor()
    const name = await rows.nth(0).getByTestId('song-name').innerText()
    await rows.nth(0).getByTestId('song-name').dblclick()
    await page.getByTestId('player-title').getByText(name, { exact: true }).waitFor()
    await waitForClock(page, 0.5)
    expect(await title(page)).toBe(name)

    const { data } = await app.waitFor('utility-worker-start')
    const start = data as { threadId: number; file: string }
    expect(start.file).toBe(`file://${APP_ASAR}.unpacked/out/main/synth-worker.js`)
    await app.waitFor(
      'utility-worker-answered',
      (answered) => (answered as { threadId: number }).threadId === start.threadId,
    )
    expect(app.all('utility-worker-error')).toEqual([])
    expect(app.output()).not.toContain('synthesis worker failed')
  })
})
