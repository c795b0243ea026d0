import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { isRunning, launchApp } from './harness'
import type { StandInApp } from './harness'
import { audioState, playRow, title, waitForClock } from '../e2e/playback-support'

/**
 * The journeys of issue 11 that need the whole app: the built main process under the stand-in Electron,
 * its built-in data source in a real utility process, the built preload and renderer in Chromium.
 */
describe('the built app under the stand-in Electron: journeys', () => {
  const running: StandInApp[] = []
  const homes: string[] = []
  const launch = async (options: Parameters<typeof launchApp>[0] = {}) => {
    const app = await launchApp(options)
    running.push(app)
    return app
  }
  const newHome = async () => {
    const home = await mkdtemp(join(tmpdir(), 'cadence-journey-'))
    homes.push(home)
    return home
  }
  afterEach(async () => {
    for (const app of running.splice(0)) await app.close({ keepHome: true })
    for (const home of homes.splice(0)) await rm(home, { recursive: true, force: true })
  })

  it('a second start focuses the first window and exits', async () => {
    const home = await newHome()
    const first = await launch({ home })
    await (await first.mainPage()).getByTestId('playlist-card').first().waitFor()
    const before = first.records.length

    const second = await launch({ home })
    expect(await second.exited).toBe(0)
    expect(second.all('single-instance-lock')).toEqual([{ granted: false }])
    expect(second.all('window-created')).toEqual([])

    await first.waitFor('second-instance', (_, index) => index >= before)
    await first.waitFor('window-focus', (_, index) => index >= before)
  })

  it('quit during playback keeps the queue and the position for the next start', async () => {
    const home = await newHome()
    const first = await launch({ home })
    const page = await first.mainPage()
    await page.getByTestId('playlist-card').first().click()
    // Home has song rows of its own: use rows only once the playlist's page is there.
    await page.getByTestId('playlist-name').waitFor()
    const name = await playRow(page, page.locator('main [data-testid="song-row"]:not([aria-disabled])'), 1)
    await waitForClock(page, 2)
    const queueLength = await page.evaluate(() => {
      const root = document.querySelector('#app') as unknown as {
        __vue_app__: { config: { globalProperties: { $pinia: { _s: Map<string, { songs?: unknown[] }> } } } }
      }
      return root.__vue_app__.config.globalProperties.$pinia._s.get('queue')?.songs?.length ?? 0
    })
    expect(queueLength).toBeGreaterThan(1)
    expect(await first.quit()).toBe(0)

    const again = await launch({ home })
    const restored = await again.mainPage()
    await restored.getByTestId('player-title').getByText(name, { exact: true }).waitFor()
    expect(await title(restored)).toBe(name)
    await expect.poll(async () => (await audioState(restored)).time, { timeout: 15_000 }).toBeGreaterThan(1.5)
    expect((await audioState(restored)).paused).toBe(true)
  })

  it('a damaged cadence.json: starts with the defaults, keeps the file aside and says so', async () => {
    const home = await newHome()
    const userData = join(home, 'appData', 'Cadence-dev')
    await mkdir(userData, { recursive: true })
    await writeFile(join(userData, 'cadence.json'), '{"settings": {"theme": "dark"', 'utf8')
    const app = await launch({ home })
    const page = await app.mainPage()
    await page.getByTestId('playlist-card').first().waitFor()

    const box = (await app.waitFor('message-box')).data as { message: string; detail: string }
    expect(box.message).toContain('started with its defaults')
    const kept = (await readdir(userData)).filter((file) => file.startsWith('cadence.json.damaged-'))
    expect(kept).toHaveLength(1)
    expect(box.detail).toContain(kept[0])
    expect(await page.evaluate(() => window.cadence.invoke('settings:get').then((s) => s.theme))).toBe(
      'system',
    )
  })

  it('the data source cannot start: the window says so, and no data-source process is left behind', async () => {
    const home = await newHome()
    const userData = join(home, 'appData', 'Cadence-dev')
    await mkdir(userData, { recursive: true })
    // Where the built-in library keeps its database, a file: every start of the data source fails.
    await writeFile(join(userData, 'data-source'), 'not a folder', 'utf8')
    const app = await launch({ home })
    const page = await app.mainPage()
    const banner = page.getByTestId('source-status')
    await banner.waitFor()
    expect(await banner.textContent()).toMatch(/starting|restart/i)
    await expect.poll(() => banner.getAttribute('role'), { timeout: 60_000, interval: 500 }).toBe('alert')
    expect(await banner.textContent()).toContain('could not be restarted')
    expect(app.all('page-error')).toEqual([])

    const forks = app.all('utility-fork') as Array<{ pid: number }>
    expect(forks.length).toBeGreaterThan(1)
    await expect.poll(() => forks.filter((fork) => isRunning(fork.pid)).length, { timeout: 10_000 }).toBe(0)
    // The app itself keeps running, with its window: the person can read the message and quit.
    expect(app.child.exitCode).toBeNull()
  }, 90_000)

  it('a search overtaken by the next keystroke is cancelled quietly: no error shown, results of the last', async () => {
    const app = await launch()
    const page = await app.mainPage()
    await page.getByTestId('playlist-card').first().waitFor()

    // Two searches at once through the built preload: the first is cancelled, and says so as its kind.
    const kinds = await page.evaluate(async () => {
      const first = window.cadence.invoke('catalog:search', { keywords: 'a', limit: 30 })
      const second = window.cadence.invoke('catalog:search', { keywords: 'an', limit: 30 })
      const settle = (call: Promise<unknown>) =>
        call.then(
          (value) => ({ ok: true, kind: typeof value }),
          (error: { kind?: string }) => ({ ok: false, kind: error.kind }),
        )
      return Promise.all([settle(first), settle(second)])
    })
    expect(kinds[1]).toEqual({ ok: true, kind: 'object' })
    if (!kinds[0].ok) expect(kinds[0].kind).toBe('cancelled')

    // Typed as a person types: each keystroke overtakes the search before it.
    await page.keyboard.press('/')
    await page.keyboard.type('night', { delay: 5 })
    await page.getByTestId('search-results').waitFor()
    await page.locator('[data-testid="search-results"] [data-testid="song-row"]').first().waitFor()
    expect(await page.locator('[role="alert"]').count()).toBe(0)
    expect(app.all('page-error')).toEqual([])
  })
})
