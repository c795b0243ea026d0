import type { Page } from 'playwright-core'
import { expect } from 'vitest'

/**
 * The chain from a row's press to the play's first scheduled chunk, counted in the page (the end-to-end
 * harness's and the built main's under the stand-in Electron alike): chunks made (`createBuffer`, one
 * per chunk the output prepares), chunks scheduled (`AudioBufferSourceNode.start`, each with the counts
 * as they were then), and the media fetches per address with their answers (status, `Content-Range`,
 * body length), so the two bridges' answers can be compared.
 */
export interface PressCounts {
  buffers: number
  starts: Array<{ buffers: number; fetches: Record<string, number> }>
  fetches: Record<string, number>
  answers: Array<{ url: string; range?: string; status: number; contentRange?: string; bytes: number }>
}

/** Installs the counters (the output reads `fetch` at each call, so wrapping it now is seen). */
export function countPress(page: Page): Promise<void> {
  return page.evaluate(() => {
    const counts: PressCounts = { buffers: 0, starts: [], fetches: {}, answers: [] }
    ;(window as unknown as { __pressCounts: PressCounts }).__pressCounts = counts
    const createBuffer = BaseAudioContext.prototype.createBuffer
    BaseAudioContext.prototype.createBuffer = function (...args) {
      counts.buffers++
      return createBuffer.apply(this, args)
    }
    const start = AudioBufferSourceNode.prototype.start
    AudioBufferSourceNode.prototype.start = function (...args) {
      counts.starts.push({ buffers: counts.buffers, fetches: { ...counts.fetches } })
      return start.apply(this, args)
    }
    const realFetch = window.fetch
    window.fetch = async function (input: RequestInfo | URL, init?: RequestInit) {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
      counts.fetches[url] = (counts.fetches[url] ?? 0) + 1
      const answer = await realFetch.call(this, input, init)
      if (url.startsWith('cadence-media:')) {
        const range = new Headers(init?.headers).get('range') ?? undefined
        const bytes = (await answer.clone().arrayBuffer()).byteLength
        const contentRange = answer.headers.get('content-range') ?? undefined
        counts.answers.push({ url, range, status: answer.status, contentRange, bytes })
      }
      return answer
    }
  })
}

export const pressCounts = (page: Page): Promise<PressCounts> =>
  page.evaluate(() => structuredClone((window as unknown as { __pressCounts: PressCounts }).__pressCounts))

/** The song the output keeps for a play (`data-pressed` on the hidden element), or undefined. */
export const pressedSong = (page: Page): Promise<string | undefined> =>
  page.getByTestId('player-audio').evaluate((el) => (el as HTMLElement).dataset.pressed)

/**
 * What a press then a play of `url` cost, from the counts after the press (`pressed`) and after the play
 * began (`played`): the media answers the press got for it, and the chunks made and fetches of it between
 * the press and the play's first scheduled chunk.
 */
export function pressChain(pressed: PressCounts, played: PressCounts, url: string) {
  const first = played.starts[pressed.starts.length]
  return {
    pressAnswers: pressed.answers.filter((a) => a.url === url).map(({ url: _, ...answer }) => answer),
    chunksBeforeFirstStart: first ? first.buffers - pressed.buffers : undefined,
    fetchesBeforeFirstStart: first ? (first.fetches[url] ?? 0) - (pressed.fetches[url] ?? 0) : undefined,
  }
}

/** The chain a press gives: one head, answered 206 with 64 KB; then nothing read or made before the sound. */
export const PRESSED_CHAIN = {
  pressAnswers: [
    {
      range: 'bytes=0-65535',
      status: 206,
      contentRange: expect.stringMatching(/^bytes 0-65535\/\d+$/),
      bytes: 65536,
    },
  ],
  chunksBeforeFirstStart: 0,
  fetchesBeforeFirstStart: 0,
}

/**
 * Main's network as the app's, noting in `resolves` the song id of each `/song/detail` that resolves a
 * song to play (asked with a bitrate), so a test sees what main asks of the data source.
 */
export const countingResolves =
  (resolves: string[]): typeof fetch =>
  (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input))
    if (url.pathname.endsWith('/song/detail') && url.searchParams.has('br'))
      resolves.push(url.searchParams.get('id')!)
    return globalThis.fetch(input, init)
  }

/** Home's first playlist opened from its card, until its row `row` (0-based) shows. */
export async function openFirstPlaylist(page: Page, row: number): Promise<void> {
  await page.getByTestId('nav-home').click()
  await page.getByTestId('home-playlists').getByTestId('playlist-card').first().click()
  await page.getByTestId('song-row').nth(row).waitFor({ timeout: 30_000 })
}
