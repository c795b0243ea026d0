import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { launchApp } from '../electron/harness'
import type { StandInApp } from '../electron/harness'
import type { ProcessMemory } from '../electron/stand-in/memory'
import type { Figure } from './stats'

/** A process's resident memory now (Linux), in MB. */
export const rssMiB = (pid: number): number => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024
}

/** What a process's resident memory is made of now (Linux), in MB: its own, and files mapped (SQLite's `mmap_size`). */
export const rssParts = (pid: number): { anon: number; file: number } => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN)
  return { anon: kb('RssAnon') / 1024, file: kb('RssFile') / 1024 }
}

/** The stand-in's floor: a main that opens one blank window and nothing else. */
const BLANK_MAIN = join(import.meta.dirname, 'blank-main.ts')

export interface AppMemory {
  /** The stand-in's process running the built main, its built-in data source's import of the folder done. */
  main: ProcessMemory
  /** The same with no folder chosen, its window loaded. */
  mainWithout: ProcessMemory
  /** The stand-in's process running a main that only opens one blank window: the stand-in's own floor. */
  floor: ProcessMemory
  /** The data source's RSS then, as main started it. */
  dataSource: number
  songs: number
}

/**
 * The stand-in's process's memory as it reads it itself (test/electron/stand-in/memory.ts), after a full
 * garbage collection, once the process has rested a few seconds.
 */
async function probe(app: StandInApp, restMs: number): Promise<ProcessMemory> {
  await new Promise((r) => setTimeout(r, restMs))
  const id = `probe-${app.records.length}`
  app.send({ type: 'memory', id })
  const { data } = await app.waitFor('memory', (d) => (d as { id?: string }).id === id, 60_000)
  return data as ProcessMemory
}

/**
 * Main's memory with a music folder of `songs` files, as the app runs it: the built main (out/main/index.js)
 * under the stand-in Electron (test/electron), with the folder chosen in its store, so that it starts the
 * built-in data source with `--library` and takes its import's report. Measured once the report says the
 * folder's songs are all there (main keeps it in cadence.json), after a few seconds' rest. Beside it, the
 * same process with no folder, and the stand-in's floor (a main with one blank window), each in the same
 * run, so what the stand-in itself holds is shown apart rather than taken for main's.
 */
export async function appMemoryWithLibrary(music: string, songs: number): Promise<AppMemory> {
  const floor = await standInFloor()
  const mainWithout = await mainMemoryWithout()
  const home = await mkdtemp(join(tmpdir(), 'cadence-bench-main-'))
  const userData = join(home, 'appData', 'Cadence-dev')
  mkdirSync(userData, { recursive: true })
  const store = join(userData, 'cadence.json')
  writeFileSync(store, JSON.stringify({ musicFolders: { folders: [music], status: {}, message: null } }))
  const app = await launchApp({ home })
  try {
    const fork = await app.waitFor('utility-fork', undefined, 120_000)
    const sourcePid = (fork.data as { pid: number }).pid
    const deadline = Date.now() + 20 * 60_000
    let found = 0
    while (Date.now() < deadline) {
      try {
        const saved = JSON.parse(readFileSync(store, 'utf8')) as {
          musicFolders?: { status?: Record<string, { songs?: number | null }> }
        }
        found = saved.musicFolders?.status?.[music]?.songs ?? 0
      } catch {
        // being written
      }
      if (found >= songs) break
      await new Promise((r) => setTimeout(r, 500))
    }
    if (found < songs) throw new Error(`main's store shows ${found} of ${songs} songs imported`)
    const main = await probe(app, 3000)
    return { main, mainWithout, floor, dataSource: rssMiB(sourcePid), songs: found }
  } finally {
    await app.close({ keepHome: true })
    await rm(home, { recursive: true, force: true })
  }
}

/** Main's memory with no music folder: once its window has loaded and the data source answers, after a rest. */
async function mainMemoryWithout(): Promise<ProcessMemory> {
  const app = await launchApp()
  try {
    await app.waitFor('utility-fork', undefined, 120_000)
    await app.waitFor('window-loaded', undefined, 120_000)
    return await probe(app, 5000)
  } finally {
    await app.close()
  }
}

/** The stand-in's own memory: a main with one window on a blank page, after the same rest. */
export async function standInFloor(): Promise<ProcessMemory> {
  const app = await launchApp({ entry: BLANK_MAIN })
  try {
    await app.waitFor('window-loaded', undefined, 120_000)
    return await probe(app, 5000)
  } finally {
    await app.close()
  }
}

/** The bench's three figures for main's memory, each named for what it is (docs/bench/main-memory.md). */
export function mainMemoryFigures(app: AppMemory): Figure[] {
  const { main, mainWithout, floor } = app
  const mb = (value: number) => Math.round(value)
  const over = (a: ProcessMemory, b: ProcessMemory) =>
    `RSS ${mb(a.rss - b.rss)} MB (its own pages ${mb(a.anon - b.anon)}, files mapped ${mb(a.file - b.file)}), ` +
    `V8 heap in use ${(a.heapUsed - b.heapUsed).toFixed(1)} MB, external ${(a.external - b.external).toFixed(1)} MB`
  return [
    {
      figure: 'main memory, 20,000 songs',
      value: mb(main.rss),
      unit: 'MB',
      target: '≤ 150 MB',
      note:
        `RSS of the whole stand-in Electron process running the built main, its data source's import of ` +
        `${app.songs} songs done (V8 heap in use ${main.heapUsed.toFixed(1)} MB); ` +
        `${mb(mainWithout.rss)} MB with no folder; the stand-in's floor is ${mb(floor.rss)} MB of it`,
    },
    {
      figure: "main memory, the stand-in's floor",
      value: mb(floor.rss),
      unit: 'MB',
      note:
        `RSS of the stand-in Electron running a main that only opens one blank window ` +
        `(its own pages ${mb(floor.anon)}, files mapped ${mb(floor.file)}, V8 heap in use ` +
        `${floor.heapUsed.toFixed(1)} MB): Playwright driving Chromium, the page runtime it builds`,
    },
    {
      figure: "main memory over the stand-in's floor, 20,000 songs",
      value: mb(main.rss - floor.rss),
      unit: 'MB',
      note: `${over(main, floor)}; with no folder: ${over(mainWithout, floor)}`,
    },
  ]
}
