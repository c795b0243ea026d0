import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Song } from '@shared/api/models'
import { startApp } from './harness'
import type { App } from './harness'
import { findSongs, playSongs, playable, waitForClock } from './playback-support'

/**
 * Autoplay (issue 37) with the app's default (on), against the reference server: a queue of one song
 * gets more that fit, marked as autoplay's in the queue; songs heard in the last hour are left out; none
 * under repeat-all.
 */

async function queueItems(app: App) {
  return app.page.getByTestId('queue-item').evaluateAll((items) =>
    items.map((item) => ({
      name: item.querySelector('.name')?.textContent ?? '',
      autoplay: item.querySelector('[data-testid="queue-autoplay"]') !== null,
    })),
  )
}

describe('Autoplay', () => {
  let app: App
  let songs: Song[]
  let recommended: Song[]
  beforeAll(async () => {
    app = await startApp({ autoplay: true })
    songs = await findSongs(app, 2, playable)
    await app.page.getByTestId('now-playing').waitFor()
    const answer = await app.core.router.invoke(
      'catalog:recommend-songs',
      { limit: 30 },
      { senderUrl: `${app.appUrl}/index.html` },
    )
    recommended = answer.ok ? (answer.value as Song[]) : []
    expect(recommended.length).toBeGreaterThan(0)
  })
  afterAll(() => app?.close())

  it('adds songs that fit when the queue runs low, marked as autoplay’s, never one heard in the last hour', async () => {
    const { page } = app
    // The artist's hot songs and half the recommended ones were heard a moment ago: autoplay, which
    // tries the artist's first, must pass them over for the other recommended songs.
    const artist = await app.core.router.invoke(
      'catalog:artist',
      { id: songs[0].artists[0].id },
      { senderUrl: `${app.appUrl}/index.html` },
    )
    const hot = artist.ok ? ((artist.value as { songs?: Song[] }).songs ?? []) : []
    expect(hot.length).toBeGreaterThan(1)
    const heardSongs = [...hot, ...recommended.slice(0, Math.floor(recommended.length / 2))]
    for (const song of heardSongs) {
      app.core.history.record({
        listenedAt: Date.now() - 60_000,
        sourceId: 'builtin',
        songId: String(song.id),
        title: song.name,
        artists: song.artists.map((a) => a.name),
        durationMs: song.duration ?? 0,
      })
    }
    await playSongs(page, songs.slice(0, 1))
    await waitForClock(page, 0.3)
    await page.getByTestId('player-queue').click()
    await expect.poll(async () => (await queueItems(app)).length, { timeout: 20_000 }).toBeGreaterThan(1)
    const items = await queueItems(app)
    expect(items[0]).toEqual({ name: songs[0].name, autoplay: false })
    const added = items.slice(1)
    expect(added.every((item) => item.autoplay)).toBe(true)
    expect(added.length).toBeLessThanOrEqual(10)
    const heard = new Set(heardSongs.map((s) => s.name))
    const names = added.map((item) => item.name)
    expect(names.length).toBeGreaterThan(0)
    expect(names.filter((name) => heard.has(name))).toEqual([])
    expect(new Set(names).size).toBe(names.length)
    expect(names).not.toContain(songs[0].name)
    await page.getByTestId('player-toggle').click()
  })

  it('adds nothing under repeat-all (the queue plays again)', async () => {
    const { page } = app
    const repeat = page.getByTestId('player-repeat')
    for (let i = 0; i < 3 && (await repeat.getAttribute('aria-label')) !== 'Repeat: all'; i++)
      await repeat.click()
    await expect.poll(() => repeat.getAttribute('aria-label')).toBe('Repeat: all')
    await playSongs(page, songs.slice(1, 2))
    await waitForClock(page, 1)
    expect(await queueItems(app)).toEqual([{ name: songs[1].name, autoplay: false }])
  })
})
