import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import type { Song } from '@shared/api/models'
import type { Settings } from '@shared/settings'
import type { App } from '../e2e/harness'
import { sleep } from './audio-record'
import type { Recorder } from './audio-record'
import type { Figure } from './stats'

/** What `bench:audio`'s sections (`audio-sections.ts`) share: the app they drive and its controls. */

export interface SectionRun {
  app: App
  page: Page
  /** A recorder of the bench's null sink. */
  recorder(): Recorder
  /** The library's songs by title. */
  songs: Map<string, Song>
  figures: Figure[]
}

/** What main keeps of the settings now. */
export const savedSettings = (page: Page) =>
  page.evaluate(`window.cadence.invoke('settings:get')`) as Promise<Settings>

/**
 * Changes the sound as a person does: the player bar's Sound button, then the panel's controls (speed,
 * crossfade, equaliser preset or off), each waited for in main's settings.
 */
export async function setSound(
  page: Page,
  change: { speed?: number; crossfade?: number; preset?: string; equaliserOff?: boolean },
): Promise<void> {
  const panel = page.getByTestId('sound-panel')
  if (!(await panel.isVisible())) {
    await page.getByTestId('player-sound').click()
    await panel.waitFor()
  }
  const until = async (check: (settings: Settings) => boolean) => {
    for (let i = 0; i < 300 && !check(await savedSettings(page)); i++) await sleep(100)
  }
  if (change.speed !== undefined) {
    await page.getByTestId('sound-speed').fill(String(change.speed))
    await until((s) => s.speed === change.speed)
  }
  if (change.crossfade !== undefined) {
    await page.getByTestId('sound-crossfade').fill(String(change.crossfade))
    await until((s) => s.crossfadeSeconds === change.crossfade)
  }
  if (change.preset !== undefined) {
    await page.getByTestId('sound-eq-preset').selectOption(change.preset)
    await until((s) => s.equaliser.enabled && s.equaliser.preset === change.preset)
  }
  if (change.equaliserOff) {
    await page.getByTestId('sound-eq-enabled').setChecked(false, { force: true })
    await until((s) => !s.equaliser.enabled)
  }
}

/** Waits for the player's title to be `title`. */
export const titleShown = (page: Page, title: string, timeout = 60_000) =>
  page.getByTestId('player-title').getByText(title, { exact: true }).waitFor({ timeout })

/** Pauses the player (its store, as the other bench steps do) and waits for its fade to be heard. */
export async function pausePlayer(page: Page): Promise<void> {
  await page.evaluate(`(() => {
    const app = document.querySelector('#app').__vue_app__
    return app.config.globalProperties.$pinia._s.get('player').pause()
  })()`)
  await sleep(600)
}

/** BENCH_SAVE=<folder>: a section's recording (left channel, float32) kept there as `<name>.f32`. */
export async function keep(name: string, left: Float32Array): Promise<void> {
  if (process.env.BENCH_SAVE)
    await writeFile(
      join(process.env.BENCH_SAVE, `${name}.f32`),
      Buffer.from(left.buffer, left.byteOffset, left.byteLength),
    )
}
