import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDataSource } from '@server/index'
import type { DataSourceHandle } from '@server/index'
import type { QrEvent } from '@shared/ipc/contract'
import { RESULTS_DIR, startApp } from './harness'
import type { App } from './harness'
import { findSongs, playable, playSongs, title, waitForClock } from './playback-support'
import { OWNER_PASSPHRASE } from '../support/phone'
import * as phone from '../support/phone'

/**
 * Issue #7, faults during use: the data source dies while a song plays (a clear message, the queue kept,
 * playing again on request once it is back), and the login expires mid-session (a prompt to log in again,
 * and after it the view the user was on). The built-in data source's process restart is Electron glue
 * (`utilityProcess`); its logic, `superviseDataSource`, is covered in test/unit/faults-restart.test.ts.
 */

interface PlayerView {
  entries: number
  current: string | null
  status: string
}

/** What the player store holds (Pinia keeps it on the app instance). */
function playerView(page: Page): Promise<PlayerView> {
  return page.evaluate(() => {
    const root = document.querySelector('#app') as unknown as {
      __vue_app__: { config: { globalProperties: { $pinia: { _s: Map<string, unknown> } } } }
    }
    const player = root.__vue_app__.config.globalProperties.$pinia._s.get('player') as {
      entries: unknown[]
      current: { name: string } | null
      status: string
    }
    return { entries: player.entries.length, current: player.current?.name ?? null, status: player.status }
  })
}

describe('the data source dies during playback', () => {
  let app: App
  let revived: DataSourceHandle | undefined
  let revivedDir: string | undefined
  const DEMO = 60

  beforeAll(async () => {
    await mkdir(RESULTS_DIR, { recursive: true })
    app = await startApp({ demo: DEMO })
  })
  afterAll(async () => {
    await app?.close()
    await revived?.close()
    if (revivedDir) await rm(revivedDir, { recursive: true, force: true })
  })

  it('says so, keeps the queue, and plays again on request once the source is back', async () => {
    const { page } = app
    const songs = await findSongs(app, 4, playable)
    await playSongs(page, songs)
    await waitForClock(page, 0.3)
    await expect.poll(() => title(page), { timeout: 10_000 }).toBe(songs[0].name)

    // The data source goes away (its process is gone: the port is closed).
    const port = Number(new URL(app.server!.url).port)
    await app.server!.close()
    await page.getByTestId('player-next').click()

    const notice = page.getByTestId('player-notice')
    await notice.waitFor({ timeout: 20_000 })
    expect((await notice.innerText()).trim().length).toBeGreaterThan(10)
    await app.screenshot('faults-source-died')
    const during = await playerView(page)
    // Offline mode: said once, in one notice naming the song and the source; songs not on this computer
    // are passed over without trying each, and when nothing after it can play the queue stays where it was.
    expect(during).toMatchObject({ entries: 4, current: songs[1].name })
    await expect.poll(() => notice.innerText(), { timeout: 10_000 }).toContain('not on this computer')
    await page.getByTestId('offline-banner').waitFor()
    await expect
      .poll(() => page.getByTestId('player-audio').evaluate((el) => (el as HTMLAudioElement).paused), {
        timeout: 10_000,
      })
      .toBe(true)

    // Back on the same address, as the app's supervisor would bring it back, and main is told.
    revivedDir = await mkdtemp(join(tmpdir(), 'cadence-faults-revived-'))
    revived = await startDataSource({
      ownerPassphrase: OWNER_PASSPHRASE,
      dataDir: revivedDir,
      port,
      demo: DEMO,
    })
    app.core.setBuiltin(revived.url, 'ready')

    await page.getByTestId('player-toggle').click()
    await waitForClock(page, 0.3, 20_000)
    await expect.poll(() => title(page), { timeout: 10_000 }).toBe(songs[1].name)
    await expect
      .poll(() => playerView(page), { timeout: 10_000 })
      .toMatchObject({ entries: 4, current: songs[1].name })
  })
})

describe('the login expires mid-session', () => {
  let app: App
  let server: DataSourceHandle
  let dataDir: string

  beforeAll(async () => {
    await mkdir(RESULTS_DIR, { recursive: true })
    dataDir = await mkdtemp(join(tmpdir(), 'cadence-faults-login-'))
    server = await startDataSource({
      ownerPassphrase: OWNER_PASSPHRASE,
      dataDir,
      port: 0,
      demo: 60,
      ownerName: 'Ada Faults',
    })
    app = await startApp({ sourceUrl: server.url })
  })
  afterAll(async () => {
    await app?.close()
    await server?.close()
    await rm(dataDir, { recursive: true, force: true })
  })

  /**
   * The phone: waits for the code the login window shows (the window starts its own QR flow when it
   * opens, replacing any earlier one), opens it, confirms.
   */
  async function confirmOnPhone(page: Page) {
    await expect.poll(() => app.loginPage()?.url() ?? '', { timeout: 10_000 }).toContain('#/login')
    await app.loginPage()!.locator('.qr img, img[src^="data:image"]').first().waitFor({ timeout: 10_000 })
    let qrurl: string | undefined
    for (let i = 0; i < 100 && !qrurl; i++) {
      const state = (await page.evaluate(() => window.cadence.invoke('auth:qr-state'))) as QrEvent | null
      if (state?.phase === 'waiting' && state.qrurl) qrurl = state.qrurl
      else await new Promise((resolve) => setTimeout(resolve, 100))
    }
    if (!qrurl) throw new Error('no QR code to scan')
    await fetch(qrurl)
    const confirmed = await phone.confirmOnPhone(qrurl)
    expect(confirmed.status).toBe(200)
    await expect
      .poll(() => page.evaluate(() => window.cadence.invoke('auth:status').then((s) => s.status)), {
        timeout: 15_000,
      })
      .toBe('signed-in')
  }

  it('prompts to log in again, and after it shows the view the user was on', async () => {
    const { page } = app
    await page.evaluate(() => window.cadence.invoke('auth:start-qr'))
    await confirmOnPhone(page)

    // The user is on a playlist.
    const [playlist] = await page.evaluate(() =>
      window.cadence.invoke('catalog:recommend-playlists', { limit: 1 }),
    )
    await page.evaluate((id) => (location.hash = `#/playlist/${id}`), playlist.id)
    await page.getByTestId('playlist-name').waitFor()
    await expect
      .poll(() => page.getByTestId('playlist-name').innerText(), { timeout: 10_000 })
      .toBe(playlist.name)
    const where = await page.evaluate(() => location.hash)

    // The server forgets every login; the next thing that needs it (a like) finds out.
    server.expireCredentials()
    await page.getByTestId('song-row').first().getByTestId('like-button').click()
    const banner = page.getByTestId('session-expired')
    await banner.waitFor({ timeout: 15_000 })
    await expect.poll(() => banner.innerText(), { timeout: 10_000 }).toMatch(/log in/i)
    await app.screenshot('faults-login-expired')

    // Log in again from the prompt.
    await banner.getByRole('button').click()
    await confirmOnPhone(page)

    await banner.waitFor({ state: 'detached', timeout: 10_000 })
    // The in-window login view goes back to where the user was once signed in.
    await expect.poll(() => page.evaluate(() => location.hash), { timeout: 5000 }).toBe(where)
    await page.getByTestId('playlist-name').waitFor()
    await expect
      .poll(() => page.getByTestId('playlist-name').innerText(), { timeout: 10_000 })
      .toBe(playlist.name)
    await expect.poll(() => app.loginPage()).toBeUndefined()
  })
})
