import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startApp } from './harness'
import type { App } from './harness'
import { openFirstPlaylist } from '../support/press-counts'
import { audioState } from './playback-support'

/**
 * A click heard at once: while nothing plays the output's audio context is suspended, and resuming it
 * takes 10–70 ms (`test/bench/press-chain.ts`), which a play from silence waited for. A row's first press
 * (a double-click's second press comes 100–300 ms later) resumes it (`graph.ts` `wake`), so the play
 * finds it running; with no play it is suspended again (`WAKE_KEEP_MS`). The page's resumes are
 * recorded with the state the context was in.
 */

const RESUMES = `(() => {
  window.__resumes = []
  const resume = AudioContext.prototype.resume
  AudioContext.prototype.resume = function () {
    window.__resumes.push(this.state)
    window.__context = this
    return resume.call(this)
  }
})()`

describe('A pressed row wakes the output for its play', () => {
  let app: App
  beforeAll(async () => {
    app = await startApp()
    await app.page.evaluate(() => window.cadence.invoke('settings:update', { loudness: 'off' }))
    await openFirstPlaylist(app.page, 8)
    // A string, so the bundler's helpers do not reach the page.
    await app.page.evaluate(RESUMES)
  }, 120_000)
  afterAll(() => app?.close())

  /** The states the context was in when each resume was asked. */
  const resumes = () => app.page.evaluate('window.__resumes') as Promise<string[]>
  const state = () => app.page.evaluate('window.__context?.state') as Promise<string | undefined>
  const name = (index: number) => app.page.getByTestId('song-row').nth(index).getByTestId('song-name')
  const pointerDown = (index: number) =>
    name(index).dispatchEvent('pointerdown', { button: 0, isPrimary: true })

  it('a press with no play: the suspended context runs, then is suspended again', async () => {
    expect(await resumes()).toEqual([])
    await pointerDown(3)
    await expect.poll(() => resumes(), { timeout: 15_000 }).toEqual(['suspended'])
    await expect.poll(() => state(), { timeout: 15_000 }).toBe('running')
    // No play came: let go again.
    await expect.poll(() => state(), { timeout: 30_000 }).toBe('suspended')
    expect((await audioState(app.page)).paused).toBe(true)
  }, 60_000)

  it('a press then its double-click: the play finds the context running (no resume of its own)', async () => {
    const before = (await resumes()).length
    const title = await name(5).innerText()
    await pointerDown(5)
    await expect.poll(() => state(), { timeout: 15_000 }).toBe('running')
    await name(5).dblclick()
    await app.page.getByTestId('player-title').getByText(title, { exact: true }).waitFor()
    await expect.poll(async () => (await audioState(app.page)).time, { timeout: 30_000 }).toBeGreaterThan(0.5)
    // The press's resume only woke it: the play found it running (its own resume a no-op).
    expect((await resumes()).slice(before).filter((s) => s !== 'running')).toEqual(['suspended'])
    await app.page.getByTestId('player-toggle').click()
    await expect.poll(async () => (await audioState(app.page)).paused, { timeout: 15_000 }).toBe(true)
  }, 90_000)
})
