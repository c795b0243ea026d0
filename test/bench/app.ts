import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { gzipSync } from 'node:zlib'
import { pathToFileURL } from 'node:url'
import { deserialize, serialize } from 'node:v8'
import { startDataSource } from '@server/index'
import { startApp } from '../e2e/harness'
import { median, printTable, round, summarise } from './stats'
import type { Figure } from './stats'
import { OWNER_PASSPHRASE } from '../support/phone'
import type { BundleReport } from '../../tools/bundle-report'

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

/** Bytes the modules of one package put into a build (from `out/<part>/bundle-report.json`). */
function packageBytes(report: BundleReport, pkg: string): number {
  let bytes = 0
  for (const chunk of report.chunks)
    for (const [id, size] of Object.entries(chunk.modules))
      if (id.startsWith(`node_modules/${pkg}/`)) bytes += size
  return bytes
}

/** The bundle report: the renderer's initial and total JavaScript, the preload, and what they carry. */
export async function bundleFigures(): Promise<Figure[]> {
  const read = async (part: string) =>
    JSON.parse(await readFile(join(ROOT, 'out', part, 'bundle-report.json'), 'utf8')) as BundleReport
  const renderer = await read('renderer')
  const preload = await read('preload')
  const initial = await initialJavaScriptGzipped()
  let all = 0
  for (const chunk of renderer.chunks)
    all += gzipSync(await readFile(join(ROOT, 'out/renderer', chunk.file))).length
  const preloadFile = await readFile(join(ROOT, 'out/preload', preload.chunks[0].file))
  const zod = packageBytes(renderer, 'zod') + packageBytes(preload, 'zod')
  const compiler = packageBytes(renderer, '@intlify/message-compiler')
  return [
    {
      figure: 'renderer initial JS (gzip)',
      value: round(initial / 1024, 1),
      unit: 'KB',
      target: '<= 80',
      note: 'entry script and its static imports, minified',
    },
    { figure: 'renderer JS, all chunks (gzip)', value: round(all / 1024, 1), unit: 'KB' },
    {
      figure: 'preload size',
      value: round(preloadFile.length / 1024, 1),
      unit: 'KB',
      note: `${round(gzipSync(preloadFile).length / 1024, 1)} KB gzipped`,
    },
    { figure: 'zod in renderer + preload', value: zod, unit: 'bytes', target: '0' },
    {
      figure: 'vue-i18n message compiler in renderer',
      value: compiler,
      unit: 'bytes',
      note: 'shared helpers only; messages are compiled at build time (tools/i18n-precompile.ts)',
    },
  ]
}

export async function benchApp(): Promise<Figure[]> {
  const figures: Figure[] = await bundleFigures()

  // Start to interactive Home: the built-in data source starting on an existing data dir, then the window
  // loading until the recommended playlists are painted. Floor: the same page with no data shown.
  const dataDir = await mkdtemp(join(tmpdir(), 'cadence-bench-app-'))
  try {
    const first = await startDataSource({ ownerPassphrase: OWNER_PASSPHRASE, dataDir, port: 0, demo: 300 })
    await first.close()
    const app = await startApp()
    try {
      const home: number[] = []
      const shell: number[] = []
      const server: number[] = []
      for (let run = 0; run < RUNS; run++) {
        const started = performance.now()
        const source = await startDataSource({ ownerPassphrase: OWNER_PASSPHRASE, dataDir, port: 0 })
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
        ...summarise('start to interactive Home (built-in source)', startToHome, 'ms', '<= 400'),
        floorRatio: round(median(startToHome) / median(shell.map((ms, i) => ms + server[i])), 2),
        note: 'data source start + page load until playlists are painted; floor: same start to an empty shell',
      })
      figures.push(summarise('  of which data source start', server, 'ms'))
    } finally {
      await app.close()
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true })
  }
  figures.push(...(await bridgeTransfer()))
  return figures
}

/**
 * Bridge transfer: the 10,000-song playlist of a 10,000-song catalogue crossing from core to renderer.
 * The core's cache answers every call after the first, so what is timed is serialisation across the
 * bridge and parsing in the page. Floor: the same call for a 1-song answer (the bridge's fixed cost).
 */
async function bridgeTransfer(): Promise<Figure[]> {
  const app = await startApp({ demo: 10_000 })
  try {
    const { big, small } = await app.page.evaluate(async () => {
      const lists = await window.cadence.invoke('catalog:user-playlists', { limit: 100 })
      const sorted = [...lists].sort((a, b) => (b.size ?? 0) - (a.size ?? 0))
      return { big: sorted[0].id, small: sorted[sorted.length - 1].id }
    })
    const time = (id: string | number) =>
      app.page.evaluate(async (playlist) => {
        const t = performance.now()
        const answer = await window.cadence.invoke('catalog:playlist', { id: playlist })
        return { ms: performance.now() - t, songs: answer.total }
      }, id)
    await time(big)
    await time(small)
    const runs: number[] = []
    const floor: number[] = []
    let songs = 0
    for (let run = 0; run < RUNS; run++) {
      const result = await time(big)
      runs.push(result.ms)
      songs = result.songs
      floor.push((await time(small)).ms)
    }

    // Electron's IPC path: ipcMain.handle's answer is copied with V8's structured clone (serialise in main,
    // deserialise in the renderer). Timed on the core's real answers for the same playlist: opening it
    // (header + first rows), one page the list asks for while scrolling, and the whole list in the bulk
    // pages Play all asks for.
    const sender = { senderUrl: `${app.appUrl}/` }
    const head = await app.core.router.invoke('catalog:playlist', { id: big }, sender)
    const page = await app.core.router.invoke(
      'catalog:playlist-rows',
      { id: big, offset: 5000, limit: 200 },
      sender,
    )
    const bulk = []
    for (let offset = 0; offset < songs; offset += 2000) {
      bulk.push(
        await app.core.router.invoke('catalog:playlist-rows', { id: big, offset, limit: 2000 }, sender),
      )
    }
    const cloneTime = (value: unknown) => {
      const times: number[] = []
      for (let run = 0; run < RUNS * 2; run++) {
        const t = performance.now()
        deserialize(serialize(value))
        times.push(performance.now() - t)
      }
      return times
    }
    const whole = []
    for (let run = 0; run < RUNS; run++) {
      const t = performance.now()
      for (const answer of bulk) deserialize(serialize(answer))
      whole.push(performance.now() - t)
    }
    return [
      {
        ...summarise(
          `bridge transfer, opening a ${songs}-song playlist (Electron IPC path)`,
          cloneTime(head),
          'ms',
          '< 30',
        ),
        note: `V8 structured clone of the core's answer (header and first rows, ${serialize(head).length} bytes): what ipcRenderer.invoke does`,
      },
      {
        ...summarise('bridge transfer, a page of 200 rows (Electron IPC path)', cloneTime(page), 'ms'),
        note: 'what the list asks for while it scrolls',
      },
      {
        ...summarise(`bridge transfer, all ${songs} rows in pages of 2,000 (Electron IPC path)`, whole, 'ms'),
        note: 'what Play all and Shuffle ask for, in the background',
      },
      {
        ...summarise(`bridge transfer, opening a ${songs}-song playlist (test bridge)`, runs, 'ms'),
        floorRatio: round(median(runs) / median(floor), 1),
        note: 'Playwright binding, one JSON string over CDP; floor: a small playlist',
      },
    ]
  } finally {
    await app.close()
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  printTable(await benchApp())
}
