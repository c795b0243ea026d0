import type { Page } from 'playwright-core'
import { expect } from 'vitest'
import type { Song } from '@shared/api/models'
import type { App } from './harness'
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
