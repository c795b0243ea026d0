import { pathToFileURL } from 'node:url'
import type { Page } from 'playwright-core'
import type { Song } from '@shared/api/models'
import { startApp } from '../e2e/harness'
import { findSongs, playable } from '../e2e/playback-support'
import { printTable, summarise } from './stats'
import type { Figure } from './stats'

/**
 * Playback latency in Chromium against the reference data source, measured inside the page from the
 * button's click to the audio element's `playing` event:
 * - click to playing: a queued song that was never resolved (resolve over IPC, load, decode, start);
 * - skip to next playing: while a song plays, its successor already resolved ahead of time.
 * Needs the renderer built (`npx electron-vite build`).
 */

const RUNS = 7

type Store = {
  clear(): void
  addToQueue(song: unknown): void
  playSongs(songs: unknown[], start?: number): Promise<void>
}

/** Runs `action` on the player store inside the page. */
export function withPlayer(page: Page, action: 'queue-one' | 'play-all', songs: Song[]): Promise<void> {
  const plain = songs.map((song) => ({ ...song, meta: undefined }))
  return page.evaluate(
    async ([what, list]) => {
      const root = document.querySelector('#app') as unknown as {
        __vue_app__: { config: { globalProperties: { $pinia: { _s: Map<string, unknown> } } } }
      }
      const player = root.__vue_app__.config.globalProperties.$pinia._s.get('player') as Store
      if (what === 'queue-one') {
        player.clear()
        player.addToQueue(list[0])
      } else {
        await player.playSongs(list, 0)
      }
    },
    [action, plain] as const,
  )
}

/** Clicks the button and answers the milliseconds until the audio element fires `playing`. */
export function clickToPlaying(page: Page, testId: string): Promise<number> {
  return page.evaluate(
    (id) =>
      new Promise<number>((resolve, reject) => {
        const audio = document.querySelector('[data-testid="player-audio"]')
        const button = document.querySelector<HTMLElement>(`[data-testid="${id}"]`)
        if (!audio || !button) return reject(new Error(`no audio element or no ${id}`))
        const timer = setTimeout(() => reject(new Error('no playing event within 10 s')), 10_000)
        let started = 0
        audio.addEventListener(
          'playing',
          () => {
            clearTimeout(timer)
            resolve(performance.now() - started)
          },
          { once: true },
        )
        started = performance.now()
        button.click()
      }),
    testId,
  )
}

export async function waitPlaying(page: Page) {
  await page.waitForFunction(() => {
    const audio = document.querySelector('[data-testid="player-audio"]') as HTMLAudioElement | null
    return !!audio && !audio.paused && audio.currentTime > 0.05
  })
}

export async function benchPlayback(): Promise<
  Array<{ figure: string; value: number; target?: string; unit: string; min?: number; max?: number }>
> {
  const app = await startApp()
  try {
    const { page } = app
    await page.getByTestId('now-playing').waitFor()
    const songs = await findSongs(app, 2 * RUNS + 4, playable)

    // Warm-up: creates the audio element and warms the code paths once.
    await withPlayer(page, 'play-all', songs.slice(0, 2))
    await waitPlaying(page)

    const click: number[] = []
    for (let run = 0; run < RUNS; run++) {
      await withPlayer(page, 'queue-one', [songs[2 + run]])
      click.push(await clickToPlaying(page, 'player-toggle'))
    }

    const skip: number[] = []
    for (let run = 0; run < RUNS; run++) {
      const pair = songs.slice(2 + RUNS + run, 4 + RUNS + run)
      await withPlayer(page, 'play-all', pair)
      await waitPlaying(page)
      // Let the ahead-of-time resolve of the next song finish, as it does while a song plays.
      await page.waitForTimeout(300)
      skip.push(await clickToPlaying(page, 'player-next'))
    }

    const figures: Figure[] = [
      summarise('click to playing (song not resolved yet)', click, 'ms', '< 300'),
      summarise('skip to next playing (next resolved ahead)', skip, 'ms', '< 100'),
    ]
    return figures
  } finally {
    await app.close()
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  printTable(await benchPlayback())
}
