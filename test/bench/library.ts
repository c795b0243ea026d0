/**
 * Library benchmark (issue 36): the built-in data source (the built `out/main/data-source.js`, run by
 * Node as the app's utility process would run it, without the port to main) importing 20,000 generated
 * files: the first import (files/s), a restart whose import finds nothing changed (ms), a file added while
 * it runs until search finds it (ms, through the folder watch), and the data source's memory with 20,000
 * songs (MB), and main's memory with them as the app runs it (library-main.ts). Figures, not pass/fail,
 * each with the CPU time it took and the load average. Run alone with `npx tsx test/bench/library.ts`
 * after a build.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { DATA_SOURCE_EXEC_ARGV } from '../../shared/data-source-process'
import { appMemoryWithLibrary, mainMemoryFigures, rssMiB, rssParts } from './library-main'
import type { Figure } from './stats'

const FILES = 20_000
const PER_ALBUM = 20
/** CPU time a process has used (user and system), in seconds (Linux). */
const cpuSeconds = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
  return (Number(fields[11]) + Number(fields[12])) / 100
}
const ENTRY = resolve(import.meta.dirname, '../../out/main/data-source.js')

/** A short silent 8 kHz mono WAV with RIFF INFO tags after its audio: what a tagger writes, made by code. */
export function taggedWav(tags: Record<string, string>, seed: number): Buffer {
  const samples = 800 + (seed % 50)
  const data = Buffer.alloc(samples * 2)
  data.writeInt16LE(seed % 30000, 0)
  const fmt = Buffer.alloc(24)
  fmt.write('fmt ', 0, 'ascii')
  fmt.writeUInt32LE(16, 4)
  fmt.writeUInt16LE(1, 8)
  fmt.writeUInt16LE(1, 10)
  fmt.writeUInt32LE(8000, 12)
  fmt.writeUInt32LE(16000, 16)
  fmt.writeUInt16LE(2, 20)
  fmt.writeUInt16LE(16, 22)
  const dataHead = Buffer.alloc(8)
  dataHead.write('data', 0, 'ascii')
  dataHead.writeUInt32LE(data.length, 4)
  const chunks = Object.entries(tags).map(([id, text]) => {
    const value = Buffer.from(text + '\0', 'utf8')
    const padded = value.length % 2 ? Buffer.concat([value, Buffer.alloc(1)]) : value
    const head = Buffer.alloc(8)
    head.write(id, 0, 'ascii')
    head.writeUInt32LE(value.length, 4)
    return Buffer.concat([head, padded])
  })
  const body = Buffer.concat([Buffer.from('INFO', 'ascii'), ...chunks])
  const list = Buffer.alloc(8)
  list.write('LIST', 0, 'ascii')
  list.writeUInt32LE(body.length, 4)
  const riff = Buffer.alloc(12)
  riff.write('RIFF', 0, 'ascii')
  riff.write('WAVE', 8, 'ascii')
  const out = Buffer.concat([riff, fmt, dataHead, data, list, body])
  out.writeUInt32LE(out.length - 8, 4)
  return out
}

export function generate(music: string): void {
  for (let i = 0; i < FILES; i++) {
    const album = Math.floor(i / PER_ALBUM)
    const dir = join(music, `Artist ${album % 200}`, `Album ${album}`)
    if (i % PER_ALBUM === 0) mkdirSync(dir, { recursive: true })
    const track = (i % PER_ALBUM) + 1
    writeFileSync(
      join(dir, `${String(track).padStart(2, '0')} Song ${i}.wav`),
      taggedWav(
        { INAM: `Song ${i}`, IART: `Artist ${album % 200}`, IPRD: `Album ${album}`, ITRK: String(track) },
        i,
      ),
    )
  }
}

interface Running {
  child: ChildProcess
  url: string
  /** Resolves with the time the next "Library:" line arrived. */
  nextLibraryLine(): Promise<number>
  stop(): Promise<void>
}

function start(dataDir: string, music: string): Promise<Running> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(
      process.execPath,
      [...DATA_SOURCE_EXEC_ARGV, ENTRY, '--data', dataDir, '--port', '0', '--demo', '0', '--library', music],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
        env: { ...process.env, CADENCE_OWNER_PASSPHRASE: 'bench bench bench bench' },
      },
    )
    const waiting: Array<(t: number) => void> = []
    const lines: number[] = []
    let buffered = ''
    child.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8')
      let nl
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, nl)
        buffered = buffered.slice(nl + 1)
        const listening = /^Listening on (\S+)/.exec(line)
        if (listening) {
          resolvePromise({
            child,
            url: listening[1],
            nextLibraryLine: () =>
              new Promise((r) => (lines.length > 0 ? r(lines.shift()!) : waiting.push(r))),
            stop: () =>
              new Promise((r) => {
                child.once('exit', () => r())
                child.kill('SIGTERM')
              }),
          })
        } else if (line.startsWith('Library:')) {
          const t = performance.now()
          const w = waiting.shift()
          if (w) w(t)
          else lines.push(t)
        }
      }
    })
    child.once('exit', (code) => reject(new Error(`the data source exited with ${code}`)))
  })
}

export async function benchLibrary(): Promise<Figure[]> {
  const dir = await mkdtemp(join(tmpdir(), 'cadence-bench-library-'))
  try {
    const music = join(dir, 'music')
    generate(music)
    const dataDir = join(dir, 'data')

    let t0 = performance.now()
    let server = await start(dataDir, music)
    const firstDone = await server.nextLibraryLine()
    const firstSeconds = (firstDone - t0) / 1000
    const firstCpu = cpuSeconds(server.child.pid!)
    const firstLoad = loadavg()[0]
    const memory = rssMiB(server.child.pid!)
    const memoryParts = rssParts(server.child.pid!)
    await server.stop()

    t0 = performance.now()
    server = await start(dataDir, music)
    const listening = performance.now()
    const listeningCpu = cpuSeconds(server.child.pid!)
    const rescanDone = await server.nextLibraryLine()
    const rescanMs = rescanDone - listening
    const rescanCpu = cpuSeconds(server.child.pid!) - listeningCpu
    const rescanLoad = loadavg()[0]

    // A file added while it runs, until search finds it. On Linux the watch is set up folder by folder
    // after the import (1,200 folders here): the file is written once that has had 5 s.
    await new Promise((r) => setTimeout(r, 5000))
    const added = performance.now()
    writeFileSync(
      join(music, 'Artist 0', 'Album 0', '99 Arrived Late.wav'),
      taggedWav({ INAM: 'Arrived Late', IART: 'Artist 0', IPRD: 'Album 0', ITRK: '99' }, 7),
    )
    let visibleMs = NaN
    for (;;) {
      const res = await fetch(`${server.url}/search?keywords=Arrived%20Late`)
      const body = (await res.json()) as { data?: { songs?: unknown[] } }
      if ((body.data?.songs?.length ?? 0) > 0) {
        visibleMs = performance.now() - added
        break
      }
      if (performance.now() - added > 120_000) break
      await new Promise((r) => setTimeout(r, 50))
    }
    await server.stop()
    const app = await appMemoryWithLibrary(music, FILES)
    return [
      {
        figure: 'first import, 20,000 files',
        value: Math.round(FILES / firstSeconds),
        unit: 'files/s',
        target: '≥ 500 files/s',
        note:
          `${firstSeconds.toFixed(1)} s from the process start, ${firstCpu.toFixed(1)} CPU-s, ` +
          `load average ${firstLoad.toFixed(1)}`,
      },
      {
        figure: 'rescan, nothing changed',
        value: Math.round(rescanMs),
        unit: 'ms',
        target: '≤ 3000 ms',
        note: `${rescanCpu.toFixed(1)} CPU-s after it listens, load average ${rescanLoad.toFixed(1)}`,
      },
      { figure: 'change on disk to visible', value: Math.round(visibleMs), unit: 'ms', target: '≤ 3000 ms' },
      {
        figure: 'data source memory, 20,000 songs',
        value: Math.round(memory),
        unit: 'MB',
        target: '≤ 150 MB',
        note:
          `RSS after the first import (${Math.round(memoryParts.anon)} MB its own, ` +
          `${Math.round(memoryParts.file)} MB files mapped: the program and the database's pages); ` +
          `${Math.round(app.dataSource)} MB when main started it`,
      },
      ...mainMemoryFigures(app),
    ]
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

async function main() {
  const figures = (await benchLibrary()).map((f) => ({ ...f, figure: `library: ${f.figure}` }))
  for (const f of figures) console.log(`${f.figure}: ${f.value} ${f.unit}${f.note ? ` (${f.note})` : ''}`)
  // `--save`: this run's library figures replace the library figures in results.json (npm run bench's file).
  if (process.argv.includes('--save')) {
    const file = resolve(import.meta.dirname, 'results.json')
    const report = JSON.parse(readFileSync(file, 'utf8')) as { figures: Figure[] }
    report.figures = [...report.figures.filter((f) => !f.figure.startsWith('library: ')), ...figures]
    writeFileSync(file, JSON.stringify(report, null, 2) + '\n')
    console.log('written test/bench/results.json (its library figures)')
  }
}
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) void main()
