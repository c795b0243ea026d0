import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { runInNewContext } from 'node:vm'
import { setFlagsFromString } from 'node:v8'
import type { CollectionSong } from '@shared/ipc/contract'
import { createMediaCache } from '@main/core/media-cache'
import { fileNameFor, serialiseIndex } from '@main/core/media-cache/cache-index'
import { DOWNLOADS_KEY } from '@main/core/downloads/queue'
import { startApp } from '../e2e/harness'
import type { App } from '../e2e/harness'
import { browserStart, mainStart } from './offline-start'
import { printTable, round, summarise } from './stats'
import type { Figure } from './stats'

/**
 * Issue 23's figures (`npx tsx test/bench/offline.ts`; needs `npx electron-vite build`):
 * - the start of a cached song, in main alone and click → audible in Chromium with where the time goes
 *   (`offline-start.ts`);
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

export async function benchOffline(): Promise<Figure[]> {
  return [
    ...(await indexMemory()),
    ...(await mainStart()),
    ...(await browserStart()),
    ...(await downloadedView()),
  ]
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  printTable(await benchOffline())
}
