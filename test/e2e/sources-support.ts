import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { expect } from 'vitest'
import { startDataSource } from '@server/index'
import type { Song } from '@shared/api/models'
import type { SourceList } from '@shared/ipc/contract'
import { RESULTS_DIR } from './harness'
import type { App } from './harness'
import { OWNER_PASSPHRASE } from '../support/phone'
import { startQuirkProxy } from '../support/quirk-proxy'
import { playable } from './playback-support'

/** Helpers of the e2e tests that use two data sources at once (the built-in one and a quirk server). */

/** A song of one data source, as `player:resolve` answers it from that source. */
export async function sourceSongs(app: App, sourceId: string, count: number): Promise<Song[]> {
  const found: Song[] = []
  for (let id = 1; id <= 60 && found.length < count; id++) {
    const answer = await app.core.router.invoke(
      'player:resolve',
      { id, sourceId },
      { senderUrl: `${app.appUrl}/index.html` },
    )
    if (answer.ok && playable(answer.value as Song) && ((answer.value as Song).duration ?? 0) >= 15_000)
      found.push(answer.value as Song)
  }
  if (found.length < count) throw new Error(`only ${found.length} songs of ${sourceId}`)
  return found
}

/** Adds songs at the end of the queue as a view's "Add to queue" does (through the player store). */
export async function addToQueue(page: Page, songs: Song[]): Promise<void> {
  const plain = songs.map((song) => ({ ...song, meta: undefined }))
  await page.evaluate((list) => {
    const root = document.querySelector('#app') as unknown as {
      __vue_app__: { config: { globalProperties: { $pinia: { _s: Map<string, unknown> } } } }
    }
    const player = root.__vue_app__.config.globalProperties.$pinia._s.get('player') as {
      addToQueue(songs: unknown[]): void
    }
    player.addToQueue(list)
  }, plain)
}

/** A locator's text, or '' while it is not there. */
export const textOf = (locator: ReturnType<Page['getByTestId']>) =>
  locator.count().then((n) => (n === 1 ? locator.innerText() : ''))

/** Makes a source active in Settings → data sources, as a person does (its radio). */
export async function activateInSettings(page: Page, url: string | undefined) {
  await page.getByTestId('nav-settings').click()
  const row = url
    ? page.getByTestId('source').filter({ hasText: url.replace(/^http:\/\//, '') })
    : page.getByTestId('source').first()
  await row.getByRole('radio').check()
  await expect.poll(() => row.getByRole('radio').isChecked(), { timeout: 15_000 }).toBe(true)
}

/** A NeteaseMusicAdapter-like server (the reference server, 30 demo songs, behind a quirk proxy). */
export async function startQuirkServer(name: string) {
  await mkdir(RESULTS_DIR, { recursive: true })
  const dataDir = await mkdtemp(join(tmpdir(), `cadence-e2e-${name}-`))
  const server = await startDataSource({
    ownerPassphrase: OWNER_PASSPHRASE,
    dataDir,
    port: 0,
    demo: 30,
    ownerName: 'Quirk Owner',
  })
  const proxy = await startQuirkProxy(server.url, 'netease')
  return {
    url: proxy.url,
    async close() {
      await proxy.close()
      await server.close()
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}

/** Adds the data source at `url` to the app (not made active): its id and name, and the built-in's. */
export async function addSource(app: App, url: string) {
  const trusted = { senderUrl: `${app.appUrl}/index.html` }
  const added = await app.core.router.invoke('sources:add', { url }, trusted)
  if (!added.ok) throw new Error(added.error.message)
  const id = (added.value as { id: string }).id
  const list = (await app.core.router.invoke('sources:list', undefined, trusted)) as {
    ok: true
    value: SourceList
  }
  return {
    id,
    name: list.value.sources.find((s) => s.id === id)!.name,
    activeId: list.value.activeId,
    builtinName: list.value.sources.find((s) => s.builtin)!.name,
  }
}

/** Settings → Music on this computer → Add (the harness's picker answers), until its `songs` are in. */
export async function addMusicFolder(page: Page, songs: number, timeout: number): Promise<void> {
  await page.getByTestId('nav-settings').click()
  await page.getByTestId('music-folders-add').click()
  await page
    .getByTestId('music-folder-summary')
    .filter({ hasText: new RegExp(`^${songs} songs · Last import `) })
    .waitFor({ timeout })
}
