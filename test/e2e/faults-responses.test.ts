import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDataSource } from '@server/index'
import type { DataSourceHandle } from '@server/index'
import { startFaultProxy } from '../support/fault-proxy'
import type { FaultMode, FaultProxy } from '../support/fault-proxy'
import { RESULTS_DIR, startApp } from './harness'
import type { App } from './harness'
import { OWNER_PASSPHRASE } from '../support/phone'

/**
 * Issue #7: hostile answers from the data source end in an error message with Retry on Home, never a
 * blank view; when the source behaves again, Retry shows the playlists. A fault proxy sits between the
 * core and the reference server. The harness does not pass a client timeout, so "late" waits out the
 * client's default 10 s.
 */

const RECOMMEND = '/playlist/recommend'
const CLIENT_TIMEOUT_MS = 10_000

const FAULTS: Array<[string, FaultMode]> = [
  ['an HTML 502 page', 'html-502'],
  ['a 200 that is not JSON', 'non-json'],
  ['JSON that is not the envelope', 'garbage-envelope'],
  ['a body cut short', 'truncate'],
  ['a dropped connection', 'reset'],
  ['an answer later than the client timeout', { delay: CLIENT_TIMEOUT_MS + 1500 }],
]

describe('Home under hostile answers', () => {
  let app: App
  let proxy: FaultProxy
  let server: DataSourceHandle
  let dataDir: string

  beforeAll(async () => {
    await mkdir(RESULTS_DIR, { recursive: true })
    dataDir = await mkdtemp(join(tmpdir(), 'cadence-faults-'))
    server = await startDataSource({ ownerPassphrase: OWNER_PASSPHRASE, dataDir, port: 0, demo: 60 })
    proxy = await startFaultProxy(server.url)
    // Broken from the very first load.
    proxy.set(RECOMMEND, 'html-502')
    app = await startApp({ sourceUrl: proxy.url })
  })
  afterAll(async () => {
    await app?.close()
    await proxy?.close()
    await server?.close()
    await rm(dataDir, { recursive: true, force: true })
  })

  it.each(FAULTS)(
    '%s: an error with Retry, then the playlists once the source answers',
    async (name, mode) => {
      const { page } = app
      proxy.set(RECOMMEND, mode)
      app.core.api().clearCache()
      await page.goto(`${app.appUrl}/index.html#/`)
      await page.reload()

      const section = page.getByTestId('home-playlists')
      const alert = section.locator('[role="alert"]')
      await alert.waitFor({ timeout: CLIENT_TIMEOUT_MS + 15_000 })
      const message = (await alert.locator('p').first().textContent())?.trim()
      expect(message).toBeTruthy()
      // Not blank: the page keeps its heading and the other sections.
      await expect(page.locator('h1.title').isVisible()).resolves.toBe(true)
      await expect
        .poll(() => page.getByTestId('home-toplists').getByTestId('playlist-card').count(), {
          timeout: 10_000,
        })
        .toBeGreaterThan(0)
      await app.screenshot(`faults-home-${name.replace(/\W+/g, '-')}`)

      proxy.set(RECOMMEND, 'pass')
      await alert.getByRole('button').click()
      await section.getByTestId('playlist-card').first().waitFor()
      await expect.poll(() => section.locator('[role="alert"]').count(), { timeout: 10_000 }).toBe(0)
      await expect
        .poll(() => section.getByTestId('playlist-card').count(), { timeout: 10_000 })
        .toBeGreaterThan(0)
    },
    60_000,
  )
})
