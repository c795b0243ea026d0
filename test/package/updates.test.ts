import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { chmod } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import type { UpdateState } from '@shared/ipc/contract'
import { launchApp } from '../electron/harness'
import type { StandInApp } from '../electron/harness'
import { RESOURCES } from './package-files'
import {
  ARTEFACT,
  ARTEFACT_BYTES,
  NEXT_VERSION,
  OLDER_VERSION,
  packageTrustingTestKey,
  startUpdateFeed,
} from './update-feed'
import type { FeedMode, UpdateFeed } from './update-feed'

/**
 * Updates in the installed app, with the real electron-updater (packed in app.asar) against a local
 * feed: the package's `resources/app-update.yml` (written by electron-builder from electron-builder.yml's
 * `publish`) is pointed at it, and the app runs as an AppImage would (`APPIMAGE` names the file it
 * replaces). The stand-in provides Electron's `net.request` (test/electron/stand-in/net.ts). The feed's
 * metadata is signed by the release step (tools/sign-update.ts) with a throwaway key, which a copy of
 * the package trusts in place of the release key (`packageTrustingTestKey`).
 */
const CURRENT_VERSION = '0.1.0'

type MenuItem = { id?: string }
const lastTrayMenu = (app: StandInApp) => (app.all('tray-menu').at(-1) ?? []) as MenuItem[]
const updateState = (page: Page) =>
  page.evaluate(() => window.cadence.invoke('updates:state')) as Promise<UpdateState>

/** Waits until the app has answered its first check (the state has a time for it). */
async function checked(page: Page): Promise<UpdateState> {
  await page.waitForFunction(
    () => window.cadence.invoke('updates:state').then((state) => state.checkedAt !== null),
    undefined,
    { polling: 100, timeout: 30_000 },
  )
  return updateState(page)
}

describe('updates in the installed app, against a local feed', () => {
  const shipped = readFileSync(join(RESOURCES, 'app-update.yml'), 'utf8')
  let installed: ReturnType<typeof packageTrustingTestKey> | undefined
  let feed: UpdateFeed | undefined
  let app: StandInApp | undefined

  beforeAll(() => {
    expect(shipped).toMatch(/^provider: generic$/m)
    installed = packageTrustingTestKey()
  })
  afterEach(async () => {
    await app?.close()
    await feed?.close()
    app = feed = undefined
  })
  afterAll(() => installed?.dispose())

  async function start(mode: FeedMode) {
    feed = await startUpdateFeed(mode, CURRENT_VERSION)
    const resources = join(installed!.dir, 'resources')
    writeFileSync(join(resources, 'app-update.yml'), shipped.replace(/^url: .*$/m, `url: ${feed.url}`))
    const { mkdtemp } = await import('node:fs/promises')
    const { tmpdir } = await import('node:os')
    const home = await mkdtemp(join(tmpdir(), 'cadence-update-'))
    // The AppImage the user started: the file an update replaces.
    const appImage = join(home, `Cadence-${CURRENT_VERSION}.AppImage`)
    writeFileSync(appImage, '#!/bin/sh\n')
    await chmod(appImage, 0o755)
    app = await launchApp({
      executable: join(installed!.dir, 'cadence'),
      home,
      env: { APPIMAGE: appImage, XDG_CACHE_HOME: join(home, 'cache') },
    })
    const page = await app.mainPage()
    await page.getByTestId('playlist-card').first().waitFor()
    return { app, page, home, feed }
  }

  it('offers a newer version once downloaded and verified, in the window and the tray, and restarts into it', async () => {
    const { app, page, home, feed } = await start('newer')
    const banner = page.getByTestId('update-ready')
    await banner.waitFor()
    expect(await banner.innerText()).toContain(`Cadence ${NEXT_VERSION} is ready.`)
    // The metadata and its signature read once, by main; then the file it names.
    expect(feed.requests).toEqual(['/latest-linux.yml', '/latest-linux.yml.sig', `/${ARTEFACT}`])
    await app.waitFor('tray-menu', (menu) => (menu as MenuItem[])[0]?.id === 'restart-to-update')

    await page.getByTestId('update-restart').click()
    expect(await app.exited).toBe(0)
    // electron-updater put the new AppImage in place of the old one and started it.
    const installed = join(home, ARTEFACT)
    expect(readFileSync(installed)).toEqual(ARTEFACT_BYTES)
    expect(existsSync(join(home, `Cadence-${CURRENT_VERSION}.AppImage`))).toBe(false)
    await expect.poll(() => existsSync(join(home, 'started-after-update')), { timeout: 10_000 }).toBe(true)
  })

  it('says nothing when the feed offers the version already installed', async () => {
    const { app, page, feed } = await start('same')
    const state = await checked(page)
    expect(state).toMatchObject({ status: 'idle' })
    expect(feed.requests).toEqual(['/latest-linux.yml', '/latest-linux.yml.sig'])
    expect(await page.getByTestId('update-ready').count()).toBe(0)
    expect(await page.getByTestId('update-failed').count()).toBe(0)
    expect(lastTrayMenu(app).some((item) => item.id === 'restart-to-update')).toBe(false)
    expect(app.all('message-box')).toEqual([])
    expect(app.all('notification')).toEqual([])
  })

  it('refuses a download that does not match the sha512 of latest-linux.yml, and says so in the window', async () => {
    const { app, page, home } = await start('corrupt')
    const message = page.getByTestId('update-failed')
    await message.waitFor()
    expect(await message.innerText()).toContain(
      `The download of Cadence ${NEXT_VERSION} did not match its checksum`,
    )
    expect(await updateState(page)).toMatchObject({
      status: 'failed',
      version: NEXT_VERSION,
      reason: 'corrupt',
    })
    expect(await page.getByTestId('update-ready').count()).toBe(0)
    expect(lastTrayMenu(app).some((item) => item.id === 'restart-to-update')).toBe(false)
    // Nothing of the refused file is kept to install.
    const pending = join(home, 'cache/cadence-updater/pending')
    const kept = existsSync(pending) ? readdirSync(pending).filter((name) => name.endsWith('.AppImage')) : []
    expect(kept).toEqual([])
    await page.getByTestId('update-dismiss').click()
    expect(await message.count()).toBe(0)
  })

  /** A refusal before any download: said in the window, nothing fetched beyond the metadata, nothing kept. */
  async function refused(mode: FeedMode, message: string) {
    const { app, page, home, feed } = await start(mode)
    const banner = page.getByTestId('update-failed')
    await banner.waitFor()
    expect(await banner.innerText()).toContain(message)
    expect(feed.requests).toEqual(['/latest-linux.yml', '/latest-linux.yml.sig'])
    expect(await page.getByTestId('update-ready').count()).toBe(0)
    expect(lastTrayMenu(app).some((item) => item.id === 'restart-to-update')).toBe(false)
    expect(existsSync(join(home, 'cache/cadence-updater/pending'))).toBe(false)
    const state = await updateState(page)
    // Asked again at the next regular check (6 hours), not sooner.
    expect(state.nextCheckAt! - state.checkedAt!).toBe(6 * 60 * 60 * 1000)
    await page.getByTestId('update-dismiss').click()
    expect(await banner.count()).toBe(0)
    return state
  }

  it('refuses a feed whose latest-linux.yml has no signature, before downloading anything', async () => {
    const state = await refused('unsigned', 'offered an update without Cadence’s signature')
    expect(state).toMatchObject({ status: 'refused', reason: 'unsigned' })
  })

  it('refuses latest-linux.yml signed by another key, before downloading anything', async () => {
    const state = await refused('forged', 'whose signature is not Cadence’s')
    expect(state).toMatchObject({ status: 'refused', reason: 'bad-signature' })
  })

  it('refuses a replay of an older release’s signed metadata', async () => {
    const state = await refused(
      'replay',
      `offered Cadence ${OLDER_VERSION}, which is older than this version`,
    )
    expect(state).toMatchObject({ status: 'refused', reason: 'older', version: OLDER_VERSION })
  })

  it('retries a feed that is down later, silently', async () => {
    const { app, page, feed } = await start('down')
    const state = await checked(page)
    expect(state.status).toBe('idle')
    // The next try is scheduled (the first retry after 15 minutes, well before the regular 6 hours).
    expect(state.nextCheckAt! - state.checkedAt!).toBe(15 * 60 * 1000)
    expect(feed.requests).toEqual(['/latest-linux.yml'])
    expect(await page.getByTestId('update-ready').count()).toBe(0)
    expect(await page.getByTestId('update-failed').count()).toBe(0)
    expect(app.all('message-box')).toEqual([])
    expect(app.all('error-box')).toEqual([])
    const noisy = app
      .all('console')
      .filter((entry) => ['error', 'warning'].includes((entry as { type: string }).type))
    expect(noisy).toEqual([])
  })
})
