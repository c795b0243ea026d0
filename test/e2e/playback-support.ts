import type { Locator, Page } from 'playwright-core'
import type { Song } from '@shared/api/models'
import type { App } from './harness'

/**
 * Helpers for the playback and lyrics end-to-end tests. Songs are put in the queue through the player
 * store (the song lists that call it belong to other views); everything after that goes through the UI.
 */

/** A song's full detail as main resolves it (privilege, lyrics), asked the way the renderer asks. */
export async function songDetail(app: App, id: number): Promise<Song> {
  const answer = await app.core.router.invoke(
    'player:resolve',
    { id },
    { senderUrl: `${app.appUrl}/index.html` },
  )
  if (!answer.ok) throw new Error(`player:resolve ${id}: ${answer.error.message}`)
  return answer.value as Song
}

/** The first songs of the demo catalogue that match `accept`. */
export async function findSongs(app: App, count: number, accept: (song: Song) => boolean): Promise<Song[]> {
  const found: Song[] = []
  for (let id = 1; id <= 300 && found.length < count; id++) {
    const song = await songDetail(app, id).catch(() => undefined)
    if (song && accept(song)) found.push(song)
  }
  if (found.length < count) throw new Error(`only ${found.length} of ${count} songs found`)
  return found
}

export const playable = (song: Song) => song.privilege?.playable !== false && !!song.meta?.url

/** The player store of the running app (Pinia keeps it on the app instance). */
export async function playSongs(page: Page, songs: Song[], startIndex = 0): Promise<void> {
  const plain = songs.map((song) => ({ ...song, meta: undefined }))
  await page.evaluate(
    async ([list, start]) => {
      const root = document.querySelector('#app') as unknown as {
        __vue_app__: { config: { globalProperties: { $pinia: { _s: Map<string, unknown> } } } }
      }
      const player = root.__vue_app__.config.globalProperties.$pinia._s.get('player') as {
        playSongs(songs: unknown[], start: number): Promise<void>
      }
      await player.playSongs(list, start)
    },
    [plain, startIndex] as const,
  )
}

/** The hidden audio element's clock and state. */
export function audioState(page: Page) {
  return page.getByTestId('player-audio').evaluate((el) => {
    const audio = el as HTMLAudioElement
    return { time: audio.currentTime, paused: audio.paused, src: audio.src }
  })
}

/** Waits until the audio clock passes `seconds` while playing. */
export async function waitForClock(page: Page, seconds: number, timeout = 15_000): Promise<void> {
  await page.waitForFunction(
    (s) => {
      const audio = document.querySelector('[data-testid="player-audio"]') as HTMLAudioElement | null
      return !!audio && !audio.paused && audio.currentTime > s
    },
    seconds,
    { timeout, polling: 50 },
  )
}

/**
 * Plays the song of a row as a person does: a double-click on its title (the row also holds artist and
 * album links). The row is found again by that title just before the click, so a list re-rendered in
 * between cannot swap it for another. Waits until the player shows the song; when it shows something
 * else, or nothing, the error says what it shows and which messages are on screen.
 */
export async function playRow(page: Page, rows: Locator, index: number, timeout = 30_000): Promise<string> {
  await rows.nth(index).waitFor()
  const name = await rows.nth(index).getByTestId('song-name').innerText()
  const row = rows.filter({ has: page.getByTestId('song-name').getByText(name, { exact: true }) }).first()
  await row.getByTestId('song-name').dblclick()
  try {
    await page.getByTestId('player-title').getByText(name, { exact: true }).waitFor({ timeout })
  } catch (error) {
    const shown = await page.getByTestId('player-title').allInnerTexts()
    const messages = await page.locator('[role="alert"], [role="status"]').allInnerTexts()
    throw new Error(
      `double-clicked “${name}”; the player shows ${JSON.stringify(shown)}; messages: ${JSON.stringify(messages)}`,
      { cause: error },
    )
  }
  return name
}

export async function title(page: Page): Promise<string> {
  return page.getByTestId('player-title').innerText()
}

/** Sets the seek slider as a person dragging it would (input, then change). */
export async function seekWithSlider(page: Page, ms: number): Promise<void> {
  await page.getByTestId('player-seek').evaluate((el, value) => {
    const input = el as HTMLInputElement
    input.value = String(value)
    input.dispatchEvent(new Event('input', { bubbles: true }))
    input.dispatchEvent(new Event('change', { bubbles: true }))
  }, ms)
}
