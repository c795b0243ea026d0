import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { runInNewContext } from 'node:vm'
import { setFlagsFromString } from 'node:v8'
import type { Song } from '@shared/api/models'
import type { CollectionSong } from '@shared/ipc/contract'
import { createMediaCache } from '@main/core/media-cache'
import { fileNameFor, serialiseIndex } from '@main/core/media-cache/cache-index'
import { DOWNLOADS_KEY } from '@main/core/downloads/queue'
import { createCachedSource } from '@main/core/offline/cached-source'
import { silentLogger } from '@main/core/log'
import { startApp } from '../e2e/harness'
import type { App } from '../e2e/harness'
import { findSongs, playable } from '../e2e/playback-support'
import { clickToPlaying, waitPlaying, withPlayer } from './playback'
import { printTable, round, summarise } from './stats'
import type { Figure } from './stats'

/**
 * Issue 23's figures (`npx tsx test/bench/offline.ts`; needs `npx electron-vite build`):
 * - cached song start: Play → the audio element's `playing`, for a song whose audio main serves from the
 *   cache, beside the same for songs not played before (both resolve over IPC; only the audio differs);
 * - Downloaded view with 10,000 songs: the sidebar link's click → the first row on screen;
 * - the cache index's memory for 10,000 songs (heap after a forced GC) and its size on disk.
 */

const RUNS = 7
const DOWNLOADS = 10_000

/** Polls in Node until `check` holds (no fixed waits). */
async function until(check: () => boolean, what: string, timeoutMs = 20_000) {
  const end = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

async function cachedStart(): Promise<Figure[]> {
  const app = await startApp()
  try {
    const { page } = app
    await page.getByTestId('now-playing').waitFor()
    const songs = await findSongs(app, 2 * RUNS + 2, playable)
    const cached = songs.slice(2, 2 + RUNS)
    const fresh = songs.slice(2 + RUNS)
    await withPlayer(page, 'play-all', songs.slice(0, 2))
    await waitPlaying(page)
    // Play each song once, then wait until main has its whole file.
    const inCache = (song: Song) =>
      [...app.core.offline.cache.entries()].some((e) => e.songId === String(song.id))
    for (const song of cached) {
      await withPlayer(page, 'play-all', [song])
      await waitPlaying(page)
      await until(() => inCache(song), `song ${song.id} in the cache`)
    }
    const fromCache: number[] = []
    const fromNetwork: number[] = []
    for (let run = 0; run < RUNS; run++) {
      await withPlayer(page, 'queue-one', [cached[run]])
      fromCache.push(await clickToPlaying(page, 'player-toggle'))
      await withPlayer(page, 'queue-one', [fresh[run]])
      fromNetwork.push(await clickToPlaying(page, 'player-toggle'))
    }
    return [
      {
        ...summarise('cached song: Play to playing', fromCache, 'ms', '≤ 30'),
        note: 'the audio element’s playing event, not the bench:audio recorder',
      },
      summarise('song not cached: Play to playing (same run)', fromNetwork, 'ms'),
    ]
  } finally {
    await app.close()
  }
}

/** A media cache folder and a download queue holding `count` finished downloads (tiny files). */
async function seededDownloads(count: number): Promise<{ dir: string; store: Record<string, unknown> }> {
  const dir = await mkdtemp(join(tmpdir(), 'cadence-bench-downloads-'))
  const items = []
  const entries = []
  const now = Date.now()
  for (let i = 1; i <= count; i++) {
    const key = { sourceId: 'builtin', songId: String(i), bitrate: 320000 }
    const file = fileNameFor(key)
    await writeFile(join(dir, file), 'x')
    entries.push({ ...key, file, size: 1, mtimeMs: now, lastPlayed: now, pinned: true })
    const song: CollectionSong = {
      id: i,
      name: `Downloaded song ${i}`,
      tns: [],
      artists: [{ id: 1, name: 'Bench Artist' }],
      album: { id: 1, name: 'Bench Album', artists: [] },
      duration: 200_000,
    }
    items.push({
      song,
      sourceId: 'builtin',
      songId: String(i),
      bitrate: 320000,
      state: 'done',
      attempts: 0,
      addedAt: now,
      size: 4_000_000 + i,
    })
  }
  // No index.json: the cache adopts the files by name, and the queue pins its finished downloads.
  return { dir, store: { [DOWNLOADS_KEY]: { version: 1, paused: false, items } } }
}

/**
 * In the page: clicks Downloaded and answers the milliseconds until the frame that shows the first row.
 * A string, so tsx's helpers (`__name`) do not follow the code into the page.
 */
const OPEN_DOWNLOADS = `new Promise((resolve, reject) => {
  const link = document.querySelector('[data-testid="nav-downloads"]')
  if (!link) return reject(new Error('no Downloaded link'))
  const started = performance.now()
  const timer = setTimeout(() => reject(new Error('no row within 10 s')), 10000)
  const look = () => {
    if (document.querySelector('[data-testid="download-row"]')) {
      clearTimeout(timer)
      requestAnimationFrame(() => resolve(performance.now() - started))
    } else requestAnimationFrame(look)
  }
  link.click()
  requestAnimationFrame(look)
})`

async function downloadedView(): Promise<Figure[]> {
  const seeded = await seededDownloads(DOWNLOADS)
  let app: App | undefined
  try {
    app = await startApp({ store: seeded.store, mediaDir: seeded.dir })
    const { page } = app
    await page.getByTestId('nav-downloads').waitFor()
    await until(() => app!.core.offline.downloads.summary().done === DOWNLOADS, 'the seeded downloads')
    const open: number[] = []
    for (let run = 0; run < RUNS + 1; run++) {
      await page.getByTestId('nav-home').click()
      await page.getByTestId('nav-downloads').waitFor()
      const ms = (await page.evaluate(OPEN_DOWNLOADS)) as number
      if (run > 0) open.push(ms) // the first opening also loads the view's code
      const rows = await page.locator('[data-testid="download-row"]').count()
      if (rows > 120) throw new Error(`${rows} rows in the DOM: the list is not virtualised`)
    }
    return [summarise(`Downloaded view open, ${DOWNLOADS.toLocaleString('en')} songs`, open, 'ms', '≤ 100')]
  } finally {
    await app?.close()
    await rm(seeded.dir, { recursive: true, force: true })
  }
}

async function indexMemory(): Promise<Figure[]> {
  setFlagsFromString('--expose-gc')
  const gc = runInNewContext('gc') as () => void
  const seeded = await seededDownloads(DOWNLOADS)
  try {
    gc()
    const before = process.memoryUsage().heapUsed
    const cache = createMediaCache({ dir: seeded.dir, maxBytes: () => 2 * 1024 ** 3 })
    await cache.ready
    gc()
    const after = process.memoryUsage().heapUsed
    if (cache.usage().cachedCount !== DOWNLOADS) throw new Error('the index did not load every file')
    const onDisk = serialiseIndex(cache.entries()).length
    await cache.close()
    return [
      {
        figure: `cache index in memory, ${DOWNLOADS.toLocaleString('en')} songs`,
        value: round((after - before) / 1024 / 1024, 2),
        unit: 'MB',
        note: `${Math.round((after - before) / DOWNLOADS)} bytes a song; index.json ${round(onDisk / 1024 / 1024, 2)} MB`,
      },
    ]
  } finally {
    await rm(seeded.dir, { recursive: true, force: true })
  }
}

/**
 * The cache's own share of a start, without Chromium: a media request for a cached 5 MB song answered by
 * the cached source (disk check, md5 already verified, file opened) to its first chunk of bytes.
 */
async function firstByte(): Promise<Figure[]> {
  const dir = await mkdtemp(join(tmpdir(), 'cadence-bench-first-byte-'))
  try {
    const bytes = new Uint8Array(5 * 1024 * 1024).map((_, i) => i & 0xff)
    const cache = createMediaCache({
      dir,
      maxBytes: () => 2 * 1024 ** 3,
      fetch: (async () => new Response(bytes)) as typeof fetch,
    })
    const key = { sourceId: 'builtin', songId: '1', bitrate: 320000 }
    await cache.fill(key, async () => ({ url: 'http://bench/1', size: bytes.length }))
    const source = createCachedSource({
      inner: { open: () => Promise.reject(new Error('the network was asked')) },
      playable: (k) => cache.lookup(k),
      fill: () => undefined,
      isOffline: () => false,
      log: silentLogger('bench'),
    })
    const runs: number[] = []
    for (let run = 0; run < 21; run++) {
      const started = performance.now()
      const answer = await source.open(
        { sourceId: 'builtin', songId: '1', br: 320000 },
        { method: 'GET', range: 'bytes=0-' },
      )
      const reader = answer.body!.getReader()
      await reader.read()
      runs.push(performance.now() - started)
      await reader.cancel()
    }
    await cache.close()
    return [summarise('cached song: media request to first byte, in main', runs.slice(1), 'ms')]
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

export async function benchOffline(): Promise<Figure[]> {
  return [
    ...(await indexMemory()),
    ...(await firstByte()),
    ...(await cachedStart()),
    ...(await downloadedView()),
  ]
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  printTable(await benchOffline())
}
