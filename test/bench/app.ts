import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { gzipSync } from 'node:zlib'
import { pathToFileURL } from 'node:url'
import { startDataSource } from '@server/index'
import { startApp } from '../e2e/harness'
import { median, printTable, round, summarise } from './stats'
import type { Figure } from './stats'

/**
 * App-level figures: start to an interactive Home with the built-in data source, the renderer's initial
 * JavaScript (gzipped), and moving a big playlist across the bridge from core to renderer.
 */

const ROOT = resolve(import.meta.dirname, '../..')
const RUNS = 5

/** The JavaScript the renderer loads before it can show anything: entry scripts and their preloads. */
export async function initialJavaScriptGzipped(): Promise<number> {
  const dir = join(ROOT, 'out/renderer')
  const html = await readFile(join(dir, 'index.html'), 'utf8')
  const files = new Set<string>()
  for (const match of html.matchAll(
    /<script[^>]+src="([^"]+)"|<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g,
  )) {
    files.add((match[1] ?? match[2]).replace(/^\.?\//, ''))
  }
  let total = 0
  for (const file of files) total += gzipSync(await readFile(join(dir, file))).length
  return total
}

export async function benchApp(): Promise<Figure[]> {
  const figures: Figure[] = []

  const jsBytes = await initialJavaScriptGzipped()
  figures.push({
    figure: 'renderer initial JS (gzip)',
    value: round(jsBytes / 1024, 1),
    unit: 'KB',
    target: '< 200',
  })

  // Start to interactive Home: the built-in data source starting on an existing data dir, then the window
  // loading until the recommended playlists are painted. Floor: the same page with no data shown.
  const dataDir = await mkdtemp(join(tmpdir(), 'cadence-bench-app-'))
  try {
    const first = await startDataSource({ dataDir, port: 0, demo: 300 })
    await first.close()
    const app = await startApp()
    try {
      const home: number[] = []
      const shell: number[] = []
      const server: number[] = []
      for (let run = 0; run < RUNS; run++) {
        const started = performance.now()
        const source = await startDataSource({ dataDir, port: 0 })
        server.push(performance.now() - started)
        await source.close()

        await app.page.goto('about:blank')
        const t0 = performance.now()
        await app.page.goto(app.appUrl + '/index.html#/')
        await app.page.locator('#app > *').first().waitFor()
        shell.push(performance.now() - t0)
        await app.page.getByTestId('playlist-card').first().waitFor()
        home.push(performance.now() - t0)
        // A fresh load must not reuse the API client's cache.
        app.core.api().clearCache?.()
      }
      const startToHome = home.map((ms, i) => ms + server[i])
      figures.push({
        ...summarise('start to interactive Home (built-in source)', startToHome, 'ms', '< 1000'),
        floorRatio: round(median(startToHome) / median(shell.map((ms, i) => ms + server[i])), 2),
        note: 'data source start + page load until playlists are painted; floor: same start to an empty shell',
      })
      figures.push(summarise('  of which data source start', server, 'ms'))

      // Bridge transfer: a big playlist crossing from core to renderer. The core's cache answers the second
      // call, so what is timed is serialisation across the bridge and parsing in the page.
      const big = await app.page.evaluate(async () => {
        const lists = await window.cadence.invoke('catalog:recommend-playlists', { limit: 100 })
        return lists.reduce((a, b) => ((b.size ?? 0) > (a.size ?? 0) ? b : a), lists[0])
      })
      if (big) {
        await app.page.evaluate((id) => window.cadence.invoke('catalog:playlist', { id }), big.id)
        const transfer: number[] = []
        let songs = 0
        for (let run = 0; run < RUNS; run++) {
          const result = await app.page.evaluate(async (id) => {
            const t = performance.now()
            const playlist = await window.cadence.invoke('catalog:playlist', { id })
            return { ms: performance.now() - t, songs: playlist.songs?.length ?? 0 }
          }, big.id)
          transfer.push(result.ms)
          songs = result.songs
        }
        figures.push({
          ...summarise(`bridge transfer of a ${songs}-song playlist`, transfer, 'ms', '< 30 (10,000 songs)'),
          note: 'over Playwright bindings (JSON over CDP), slower than Electron IPC',
        })
      }
    } finally {
      await app.close()
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true })
  }
  return figures
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  printTable(await benchApp())
}
