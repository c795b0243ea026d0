import { pathToFileURL } from 'node:url'
import type { CDPSession, Page } from 'playwright-core'
import type { Playlist, Song } from '@shared/api/models'
import type { PlaylistHead } from '@shared/ipc/contract'
import { startApp } from '../e2e/harness'
import type { App } from '../e2e/harness'
import { playSongs } from '../e2e/playback-support'
import { printTable, round } from './stats'
import type { Figure } from './stats'

/**
 * `npm run soak`: the renderer's memory over a long session. Through the e2e harness (real renderer, core
 * and reference server in Chromium), it plays through SONGS songs — each one sought to its last half
 * second (at 16× where the output has a rate), so `ended` comes fast but every song really loads, plays and ends — and between
 * songs opens views (Home, a playlist, an artist, search with typed keywords). Every SAMPLE_EVERY songs it
 * forces a GC and reads the JS heap over CDP. Target: < 10 MB growth over the run. Not part of `npm test`.
 */

const SONGS = Number(process.env.SOAK_SONGS ?? 300)
const SAMPLE_EVERY = 25
const VIEW_EVERY = 3
const MB = 1024 * 1024
const TARGET_MB = 10

interface Sample {
  songs: number
  heapMB: number
}

async function heapMB(cdp: CDPSession): Promise<number> {
  await cdp.send('HeapProfiler.collectGarbage')
  await cdp.send('HeapProfiler.collectGarbage')
  const { usedSize } = await cdp.send('Runtime.getHeapUsage')
  return usedSize / MB
}

/** Playable songs of the demo catalogue, resolved the way the renderer resolves them. */
async function catalogueSongs(app: App, count: number): Promise<Song[]> {
  const trusted = { senderUrl: `${app.appUrl}/index.html` }
  const songs: Song[] = []
  for (let id = 1; songs.length < count && id < count * 3; id++) {
    const answer = await app.core.router.invoke('player:resolve', { id }, trusted)
    if (!answer.ok) continue
    const song = answer.value as Song
    if (song.privilege?.playable !== false && song.meta?.url) songs.push({ ...song, meta: undefined })
  }
  return songs
}

/**
 * Every song jumps to its last half second (the player store's seek, as the seek bar does) and, where the
 * output can (the old <audio> element), plays at 16×; counts the songs that ended.
 */
async function speedUp(page: Page) {
  await page.getByTestId('player-audio').evaluate((el) => {
    const audio = el as HTMLAudioElement
    const w = window as unknown as { __soakEnded: number }
    const root = document.querySelector('#app') as unknown as {
      __vue_app__: { config: { globalProperties: { $pinia: { _s: Map<string, unknown> } } } }
    }
    const player = root.__vue_app__.config.globalProperties.$pinia._s.get('player') as {
      seek(ms: number): void
      durationMs: number
    }
    w.__soakEnded = 0
    // (No named functions in here: tsx would wrap them in a helper the page does not have.)
    if ('playbackRate' in Object.getPrototypeOf(audio) && !Object.hasOwn(audio, 'currentTime')) {
      // The old <audio> element: 16× as before. The Web Audio output's face has no rate.
      audio.defaultPlaybackRate = 16
      audio.playbackRate = 16
    }
    audio.addEventListener('ended', () => w.__soakEnded++)
    audio.addEventListener('loadedmetadata', () => {
      const duration = player.durationMs / 1000
      if (Number.isFinite(duration) && duration > 1) player.seek((duration - 0.5) * 1000)
    })
    // The song already loading when this runs.
    if (player.durationMs > 1000) player.seek(player.durationMs - 500)
  })
}

const ended = (page: Page) => page.evaluate(() => (window as unknown as { __soakEnded: number }).__soakEnded)

async function browse(page: Page, step: number, playlists: PlaylistHead[], words: string[]) {
  const view = step % 4
  if (view === 0) {
    await page.evaluate(() => (location.hash = '#/'))
    await page.getByTestId('playlist-card').first().waitFor()
  } else if (view === 1) {
    const playlist = playlists[step % playlists.length]
    await page.evaluate((id) => (location.hash = `#/playlist/${id}`), playlist.id)
    await page.getByTestId('playlist-name').waitFor()
  } else if (view === 2) {
    const artistId = playlists[step % playlists.length].rows[0]?.artists[0]?.id ?? 1
    await page.evaluate((id) => (location.hash = `#/artist/${id}`), artistId)
    await page.locator('h1').first().waitFor()
  } else {
    await page.evaluate(() => (location.hash = '#/search'))
    const input = page.getByTestId('search-input')
    await input.fill(words[step % words.length])
    await page
      .getByTestId('search-results')
      .waitFor({ timeout: 5000 })
      .catch(() => {})
  }
}

export async function benchSoak(): Promise<Figure[]> {
  const app = await startApp({ demo: Math.max(400, SONGS + 100) })
  try {
    const { page } = app
    const cdp = await page.context().newCDPSession(page)
    const trusted = { senderUrl: `${app.appUrl}/index.html` }
    const lists = await app.core.router.invoke('catalog:recommend-playlists', { limit: 12 }, trusted)
    if (!lists.ok) throw new Error(lists.error.message)
    const playlists: PlaylistHead[] = []
    for (const p of lists.value as Playlist[]) {
      const detail = await app.core.router.invoke('catalog:playlist', { id: p.id }, trusted)
      if (detail.ok) playlists.push(detail.value as PlaylistHead)
    }
    const songs = await catalogueSongs(app, SONGS + 10)
    const words = songs.slice(0, 40).map((s) => s.name.split(/\s+/)[0] || s.name)

    await page.getByTestId('playlist-card').first().waitFor()
    const samples: Sample[] = [{ songs: 0, heapMB: await heapMB(cdp) }]
    await playSongs(page, songs)
    await speedUp(page)

    const started = performance.now()
    let lastEnded = 0
    let step = 0
    let stalledSince = performance.now()
    while (lastEnded < SONGS) {
      const now = await ended(page)
      if (now !== lastEnded) {
        stalledSince = performance.now()
        for (let n = lastEnded + 1; n <= now; n++) {
          if (n % VIEW_EVERY === 0) await browse(page, step++, playlists, words)
          if (n % SAMPLE_EVERY === 0) {
            samples.push({ songs: n, heapMB: await heapMB(cdp) })
            process.stdout.write(`   ${n} songs: heap ${round(samples.at(-1)!.heapMB, 2)} MB\n`)
          }
        }
        lastEnded = now
      } else if (performance.now() - stalledSince > 30_000) {
        throw new Error(`playback stalled after ${lastEnded} songs`)
      } else {
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
    }
    const seconds = (performance.now() - started) / 1000

    const first = samples[0].heapMB
    const last = samples.at(-1)!.heapMB
    const xs = samples.map((s) => s.songs)
    const ys = samples.map((s) => s.heapMB)
    const mx = xs.reduce((a, b) => a + b, 0) / xs.length
    const my = ys.reduce((a, b) => a + b, 0) / ys.length
    const slope =
      xs.reduce((a, x, i) => a + (x - mx) * (ys[i] - my), 0) / xs.reduce((a, x) => a + (x - mx) ** 2, 0)
    const peak = Math.max(...ys)
    // After the first views and songs: lazy view chunks, caches and JIT have settled.
    const warm = samples[1] ?? samples[0]
    return [
      {
        figure: `songs played through (the last 0.5 s of each)`,
        value: lastEnded,
        unit: 'songs',
        note: `${round(seconds, 0)} s, views opened every ${VIEW_EVERY} songs`,
      },
      { figure: 'renderer JS heap after GC, start', value: round(first, 2), unit: 'MB' },
      { figure: 'renderer JS heap after GC, end', value: round(last, 2), unit: 'MB' },
      {
        figure: 'renderer JS heap growth over the run',
        value: round(last - first, 2),
        unit: 'MB',
        target: `< ${TARGET_MB}`,
      },
      {
        figure: `renderer JS heap growth after warm-up (${warm.songs} songs)`,
        value: round(last - warm.heapMB, 2),
        unit: 'MB',
        note: `from ${round(warm.heapMB, 2)} MB`,
      },
      { figure: 'renderer JS heap peak (after GC)', value: round(peak, 2), unit: 'MB' },
      {
        figure: 'renderer JS heap slope',
        value: round(slope * 100, 3),
        unit: 'MB/100 songs',
        note: `${samples.length} samples`,
      },
    ]
  } finally {
    await app.close()
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const figures = await benchSoak()
  printTable(figures)
  const growth = figures.find((f) => f.figure.includes('growth over the run'))?.value ?? NaN
  process.exit(growth < TARGET_MB ? 0 : 1)
}
