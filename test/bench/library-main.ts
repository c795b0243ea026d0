import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { launchApp } from '../electron/harness'

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

export interface AppMemory {
  /** Main's RSS once its built-in data source has imported the folder. */
  main: number
  /** Main's RSS with no folder chosen, its window loaded: what the stand-in and the app take without songs. */
  mainWithout: number
  /** The data source's RSS then, as main started it. */
  dataSource: number
  songs: number
}

/**
 * Main's memory with a music folder of `songs` files, as the app runs it: the built main (out/main/index.js)
 * under the stand-in Electron (test/electron), with the folder chosen in its store, so that it starts the
 * built-in data source with `--library` and takes its import's report. Measured once the report says the
 * folder's songs are all there (main keeps it in cadence.json), after a few seconds' rest.
 */
export async function appMemoryWithLibrary(music: string, songs: number): Promise<AppMemory> {
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
    await new Promise((r) => setTimeout(r, 3000))
    return { main: rssMiB(app.child.pid!), mainWithout, dataSource: rssMiB(sourcePid), songs: found }
  } finally {
    await app.close({ keepHome: true })
    await rm(home, { recursive: true, force: true })
  }
}

/** Main's RSS with no music folder: once its window has loaded and the data source answers, after a rest. */
async function mainMemoryWithout(): Promise<number> {
  const app = await launchApp()
  try {
    await app.waitFor('utility-fork', undefined, 120_000)
    await app.waitFor('window-loaded', undefined, 120_000)
    await new Promise((r) => setTimeout(r, 5000))
    return rssMiB(app.child.pid!)
  } finally {
    await app.close()
  }
}
