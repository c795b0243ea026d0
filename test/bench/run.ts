import { mkdir, writeFile } from 'node:fs/promises'
import { cpus, totalmem } from 'node:os'
import { join, resolve } from 'node:path'
import { benchApp } from './app'
import { benchClient } from './client'
import { benchLoad } from './load'
import { benchHistory } from './history'
import { benchLibrary } from './library'
import { benchLyrics } from './lyrics'
import { benchOffline } from './offline'
import { benchPlayback } from './playback'
import { benchServer } from './server'
import { benchHuge, benchUi } from './ui'
import { printTable } from './stats'
import type { Figure } from './stats'

/**
 * `npm run bench`: every measurable figure in one go, in Chromium against the reference data source.
 * Prints one table and writes test/bench/results.json. Figures, not pass/fail: targets are for reading.
 */

const ROOT = resolve(import.meta.dirname, '../..')

const suites: Array<[string, () => Promise<Figure[]>]> = [
  ['server', benchServer],
  ['load', benchLoad],
  ['client', benchClient],
  ['app', benchApp],
  ['ui', benchUi],
  ['huge', benchHuge],
  ['playback', benchPlayback],
  ['lyrics', benchLyrics],
  ['offline', benchOffline],
  ['history', benchHistory],
  ['library', benchLibrary],
]

const figures: Figure[] = []
const failures: string[] = []
for (const [name, run] of suites) {
  process.stdout.write(`== ${name}\n`)
  try {
    const result = await run()
    figures.push(...result.map((f) => ({ ...f, figure: `${name}: ${f.figure}` })))
  } catch (error) {
    failures.push(`${name}: ${error instanceof Error ? error.message : String(error)}`)
    console.error(`   ${name} failed:`, error)
  }
}

console.log()
printTable(figures)
const report = {
  date: new Date().toISOString(),
  machine: {
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
  },
  figures,
  failures,
}
await mkdir(join(ROOT, 'test/bench'), { recursive: true })
await writeFile(join(ROOT, 'test/bench/results.json'), JSON.stringify(report, null, 2) + '\n')
console.log(
  `\nwritten test/bench/results.json${failures.length ? ` (${failures.length} suite(s) failed)` : ''}`,
)
process.exit(failures.length ? 1 : 0)
