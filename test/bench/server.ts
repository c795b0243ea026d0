/**
 * Reference data source benchmark: a server with 100,000 demo songs in a temp dir (its own process, so the
 * load generator does not share its event loop), then
 *   - /search p50/p95 over varied keywords (sequential, one connection),
 *   - /playlist/detail p50/p95 over playlists, charts and albums,
 *   - /song/detail requests/s with 50 connections for ~10 s (autocannon).
 * Run alone: npx tsx test/bench/server.ts
 */
import { spawn, type ChildProcess } from 'node:child_process'
import type { Figure } from './stats'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { cpus, loadavg, tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

export type { Figure }

interface AutocannonResult {
  requests: { average: number; min: number; max: number; total: number }
  latency: { p50: number; p99: number }
  non2xx: number
  errors: number
  timeouts: number
}
type Autocannon = (opts: {
  url: string
  connections: number
  duration: number
  requests: Array<{ setupRequest: (req: { path: string }) => { path: string } }>
}) => Promise<AutocannonResult>

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const SONGS = 100_000

function startServer(dataDir: string): Promise<{ url: string; child: ChildProcess; startMs: number }> {
  const started = Date.now()
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(root, 'server/cli.ts'),
      '--port',
      '0',
      '--data',
      dataDir,
      '--demo',
      String(SONGS),
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
  )
  let out = ''
  return new Promise((resolvePromise, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const m = /Listening on (http:\/\/\S+)/.exec(out)
      if (m) resolvePromise({ url: m[1], child, startMs: Date.now() - started })
    })
    child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()))
    child.on('exit', (code) => reject(new Error(`server exited (${code}): ${out}`)))
  })
}

/** CPU time (user + system) the process has used, in ms; undefined where /proc is unavailable. */
function cpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100 // clock ticks at USER_HZ = 100
  } catch {
    return undefined
  }
}

function percentile(sorted: number[], p: number): number {
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  return sorted[i]
}

async function timeRequests(base: string, paths: string[], rounds: number): Promise<number[]> {
  const times: number[] = []
  for (let r = 0; r < rounds; r++) {
    for (const path of paths) {
      const t = performance.now()
      const res = await fetch(base + path)
      const body = (await res.json()) as { code: number }
      times.push(performance.now() - t)
      if (body.code !== 0) throw new Error(`${path} failed: ${JSON.stringify(body).slice(0, 200)}`)
    }
  }
  return times.sort((a, b) => a - b)
}

const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits

export async function benchServer(): Promise<Figure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'cadence-bench-'))
  const { url, child, startMs } = await startServer(dir)
  try {
    const figures: Figure[] = [
      {
        figure: `server start with ${SONGS.toLocaleString('en')} demo songs (fresh data dir)`,
        value: startMs,
        unit: 'ms',
      },
    ]

    // /search: English words, names, short CJK, misses, multi-word and hostile input.
    const keywords = [
      'midnight',
      'lights',
      'river',
      'the golden',
      'silent echoes',
      'hart',
      'monroe',
      'ava',
      'lantern',
      'satellite',
      'morning coffee',
      'ep',
      'of',
      'a',
      '夜',
      '星空',
      '夜に駆ける',
      '銀河',
      '月光',
      '林',
      'zzzz',
      'qwerty',
      'radio edit',
      'NEAR "x" *',
      'thunder station',
      'falling',
      'crystal harbor',
      'j-pop',
      '深夜电台',
      'velvet',
    ].map((k) => `/search?keywords=${encodeURIComponent(k)}`)
    await timeRequests(url, keywords, 1)
    const searchCpu0 = cpuMs(child.pid)
    const search = await timeRequests(url, keywords, 10)
    const searchCpu1 = cpuMs(child.pid)
    figures.push(
      {
        figure: '/search p50 (30 keywords × 10, sequential)',
        value: round(percentile(search, 50)),
        unit: 'ms',
      },
      {
        figure: '/search p95 (30 keywords × 10, sequential)',
        value: round(percentile(search, 95)),
        target: '< 20',
        unit: 'ms',
        min: round(search[0]),
        max: round(search[search.length - 1]),
      },
    )

    if (searchCpu0 !== undefined && searchCpu1 !== undefined) {
      figures.push({
        figure: '/search server CPU per request (load-independent)',
        value: round((searchCpu1 - searchCpu0) / search.length),
        unit: 'ms',
      })
    }

    // /playlist/detail: recommended playlists, charts and albums.
    const rec = (await (await fetch(`${url}/playlist/recommend?limit=20`)).json()) as {
      data: Array<{ id: number }>
    }
    const top = (await (await fetch(`${url}/playlist/toplist`)).json()) as { data: Array<{ id: number }> }
    const found = (await (await fetch(`${url}/search?keywords=love&limit=20`)).json()) as {
      data: { albums: Array<{ id: number }> }
    }
    const albums = (await (await fetch(`${url}/search?keywords=the&limit=20`)).json()) as {
      data: { albums: Array<{ id: number }> }
    }
    const playlistIds = [...rec.data, ...top.data, ...found.data.albums, ...albums.data.albums].map(
      (p) => p.id,
    )
    const detailPaths = playlistIds.map((id) => `/playlist/detail?id=${id}`)
    await timeRequests(url, detailPaths, 1)
    const detail = await timeRequests(url, detailPaths, 5)
    figures.push(
      {
        figure: `/playlist/detail p50 (${playlistIds.length} playlists, charts, albums)`,
        value: round(percentile(detail, 50)),
        unit: 'ms',
      },
      {
        figure: `/playlist/detail p95 (${playlistIds.length} playlists, charts, albums)`,
        value: round(percentile(detail, 95)),
        unit: 'ms',
        min: round(detail[0]),
        max: round(detail[detail.length - 1]),
      },
    )

    // /song/detail: 200 songs spread over the catalogue, audio generated once beforehand (first play of a
    // demo song synthesises its file; that is measured separately).
    const ids = Array.from({ length: 200 }, (_, i) => 1 + Math.floor((i * SONGS) / 200) + (i % 7))
    const firstTimes: number[] = []
    for (const id of ids) {
      const t = performance.now()
      await (await fetch(`${url}/song/detail?id=${id}&uid=1`)).json()
      firstTimes.push(performance.now() - t)
    }
    firstTimes.sort((a, b) => a - b)
    figures.push({
      figure: '/song/detail first request of a song (synthesises 320k audio) p50',
      value: round(percentile(firstTimes, 50)),
      unit: 'ms',
    })
    const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon
    let n = 0
    const detailCpu0 = cpuMs(child.pid)
    const result = await autocannon({
      url,
      connections: 50,
      duration: 10,
      requests: [
        { setupRequest: (req) => ({ ...req, path: `/song/detail?id=${ids[n++ % ids.length]}&uid=1` }) },
      ],
    })
    const detailCpu1 = cpuMs(child.pid)
    if (result.non2xx > 0 || result.errors > 0) {
      throw new Error(`/song/detail load: ${result.non2xx} non-2xx, ${result.errors} errors`)
    }
    figures.push(
      {
        figure: '/song/detail throughput (50 connections, 10 s)',
        value: Math.round(result.requests.average),
        target: '> 3000',
        unit: 'req/s',
        min: result.requests.min,
        max: result.requests.max,
      },
      { figure: '/song/detail latency p50 under load', value: result.latency.p50, unit: 'ms' },
      ...(detailCpu0 !== undefined && detailCpu1 !== undefined
        ? [
            {
              figure: '/song/detail capacity per server CPU core (requests ÷ server CPU seconds)',
              value: Math.round(result.requests.total / ((detailCpu1 - detailCpu0) / 1000)),
              unit: 'req/s',
            },
          ]
        : []),
      { figure: '/song/detail latency p99 under load', value: result.latency.p99, unit: 'ms' },
    )
    return figures
  } finally {
    child.kill('SIGTERM')
    await new Promise((r) => child.once('exit', r))
    rmSync(dir, { recursive: true, force: true })
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  benchServer().then(
    (figures) => {
      const rows = figures.map((f) => ({
        figure: f.figure,
        value: `${f.value} ${f.unit}`,
        target: f.target ? `${f.target} ${f.unit}` : '',
        range: f.min !== undefined ? `${f.min}–${f.max}` : '',
      }))
      console.table(rows)
      console.log(
        `load average after the run: ${loadavg()
          .map((l) => l.toFixed(2))
          .join(' ')} on ${cpus().length} CPUs`,
      )
    },
    (err: unknown) => {
      console.error(err)
      process.exit(1)
    },
  )
}
