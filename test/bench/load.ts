import { fork } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import v8 from 'node:v8'
import { mkdtemp, rm } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { printTable, round } from './stats'
import type { Figure } from './stats'
import { OWNER_PASSPHRASE } from '../support/phone'

/**
 * Load: 50 concurrent clients (autocannon) send a mix of /playlist/recommend, /playlist/detail, /search and
 * /song/detail to the reference server for 30 s after a 10 s warm-up. The server runs in a child process that
 * reports `process.memoryUsage()` every second, so its heap can be watched without the load generator's own
 * allocations in the way. Targets: no errors (non-2xx, socket errors, timeouts), and no heap growth past the
 * warm-up (heap after a forced GC at the end within 10 MB of the same at warm-up end, and a flat slope).
 * The warm-up is 10 s: with 5 s, some runs still grew 12-17 MB (caches and JIT filling), then stayed flat.
 *
 * `npx tsx test/bench/load.ts` prints the figures; `npm run test:load` (with `--check`) exits 1 on a miss.
 * As the server child: `load.ts --serve <dataDir>`.
 *
 * For finding where the server's RSS goes (docs/performance.md): `LOAD_TRACE=1` prints a memory sample per
 * second (RSS, V8 heap committed and used, external, anonymous and file-backed RSS, V8 spaces over 1 MB);
 * `LOAD_SKIP=/song` leaves a kind of request out of the mix (/song/detail is what starts the synth worker);
 * `LOAD_NODE_FLAGS="..."` replaces the server child's Node/V8 flags; `LOAD_DURATION_S=120` runs longer.
 */

const CONNECTIONS = 50
const WARMUP_S = Number(process.env.LOAD_WARMUP_S ?? 10)
const DURATION_S = Number(process.env.LOAD_DURATION_S ?? 30)
const DEMO_SONGS = 300
const HEAP_GROWTH_LIMIT_MB = 10
/**
 * The server child runs with the V8 flags `npm run serve` gives the server (package.json): V8's young
 * generation capped at 2 x 16 MB instead of growing to 128 MB under load (docs/performance.md).
 * `LOAD_NODE_FLAGS` replaces them (`LOAD_NODE_FLAGS=" "` for V8's defaults).
 */
const serverNodeFlags = (process.env.LOAD_NODE_FLAGS ?? '--max-semi-space-size=16').split(' ').filter(Boolean)

// ---- the server child ----

interface MemorySample {
  t: number
  rss: number
  heapUsed: number
  heapTotal: number
  external: number
  arrayBuffers: number
  /** Linux: anonymous (malloc, V8, thread stacks) and file-backed (mmap of the database, code) resident kB. */
  rssAnon?: number
  rssFile?: number
  spaces?: string
}
type ChildMessage =
  | { type: 'ready'; url: string }
  | { type: 'memory'; sample: MemorySample; gc: boolean }
  | { type: 'error'; message: string }

async function serve(dataDir: string) {
  const { startDataSource } = await import('@server/index')
  const handle = await startDataSource({
    ownerPassphrase: OWNER_PASSPHRASE,
    dataDir,
    port: 0,
    demo: DEMO_SONGS,
  })
  const started = performance.now()
  const sample = (): MemorySample => {
    const m = process.memoryUsage()
    const s: MemorySample = {
      t: (performance.now() - started) / 1000,
      rss: m.rss,
      heapUsed: m.heapUsed,
      heapTotal: m.heapTotal,
      external: m.external,
      arrayBuffers: m.arrayBuffers,
    }
    if (process.env.LOAD_TRACE) {
      s.spaces = v8
        .getHeapSpaceStatistics()
        .filter((x) => x.space_size > MB)
        .map((x) => `${x.space_name.replace('_space', '')}=${(x.space_size / MB).toFixed(0)}`)
        .join(' ')
    }
    try {
      const status = readFileSync('/proc/self/status', 'utf8')
      const kb = (name: string) =>
        Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024
      s.rssAnon = kb('RssAnon')
      s.rssFile = kb('RssFile')
    } catch {
      // not Linux
    }
    return s
  }
  process.on('message', (message: { type: string }) => {
    if (message.type === 'memory') process.send!({ type: 'memory', sample: sample(), gc: false })
    if (message.type === 'gc-memory') {
      const gc = (globalThis as { gc?: () => void }).gc
      gc?.()
      gc?.()
      process.send!({ type: 'memory', sample: sample(), gc: !!gc })
    }
    if (message.type === 'stop') void handle.close().then(() => process.exit(0))
  })
  process.send!({ type: 'ready', url: handle.url })
}

// ---- the driver ----

interface Result {
  requests: { total: number; average: number }
  latency: { p50: number; p99: number; average: number; max: number }
  errors: number
  timeouts: number
  non2xx: number
  mismatches?: number
  duration: number
}
interface Request {
  method: 'GET'
  path: string
}
type Autocannon = (opts: Record<string, unknown>) => Promise<Result> & { stop(): void }

function startServerChild(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  const child = fork(fileURLToPath(import.meta.url), ['--serve', dataDir], {
    execArgv: ['--import', 'tsx', '--expose-gc', ...serverNodeFlags],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the server child exited with ${code}`)))
    child.on('message', (message: ChildMessage) => {
      if (message.type === 'ready') resolve({ child, url: message.url })
    })
  })
}

function askMemory(child: ChildProcess, gc: boolean): Promise<MemorySample> {
  return new Promise((resolve) => {
    const listener = (message: ChildMessage) => {
      if (message.type !== 'memory') return
      child.off('message', listener)
      resolve(message.sample)
    }
    child.on('message', listener)
    child.send({ type: gc ? 'gc-memory' : 'memory' })
  })
}

/** A shuffled mix of the four kinds of request, with ids and keywords the catalogue really has. */
async function mixedRequests(url: string): Promise<Request[]> {
  const get = async (path: string) => {
    const answer = (await fetch(url + path).then((r) => r.json())) as { code: number; data: unknown }
    if (answer.code !== 0) throw new Error(`${path}: code ${answer.code}`)
    return answer.data
  }
  const playlists = (await get('/playlist/recommend?limit=20')) as Array<{ id: number }>
  const detail = (await get(`/playlist/detail?id=${playlists[0].id}`)) as {
    songs: Array<{ id: number; name: string; artists: Array<{ name: string }> }>
    creator?: { id: number }
  }
  const uid = detail.creator?.id ?? 1
  const songs = detail.songs.slice(0, 20)
  const words = songs.flatMap((s) => [s.name, s.artists[0]?.name ?? '']).filter((w) => w.length > 0)
  const requests: Request[] = []
  for (let i = 0; i < 20; i++) {
    requests.push({ method: 'GET', path: `/playlist/recommend?limit=${[6, 10, 12][i % 3]}` })
    requests.push({ method: 'GET', path: `/playlist/detail?id=${playlists[i % playlists.length].id}` })
    requests.push({
      method: 'GET',
      path: `/search?keywords=${encodeURIComponent(words[i % words.length].slice(0, 8))}&limit=10`,
    })
    requests.push({
      method: 'GET',
      path: `/song/detail?id=${songs[i % songs.length].id}&uid=${uid}&br=320000`,
    })
  }
  // Deterministic shuffle, so runs compare.
  let seed = 7
  for (let i = requests.length - 1; i > 0; i--) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff
    const j = seed % (i + 1)
    ;[requests[i], requests[j]] = [requests[j], requests[i]]
  }
  const skip = process.env.LOAD_SKIP
  return skip ? requests.filter((r) => !r.path.startsWith(skip)) : requests
}

/** Least-squares slope of y over x. */
function slope(xs: number[], ys: number[]): number {
  const n = xs.length
  const mx = xs.reduce((a, b) => a + b, 0) / n
  const my = ys.reduce((a, b) => a + b, 0) / n
  let num = 0
  let den = 0
  for (let i = 0; i < n; i++) {
    num += (xs[i] - mx) * (ys[i] - my)
    den += (xs[i] - mx) ** 2
  }
  return den ? num / den : 0
}

const MB = 1024 * 1024
const trace = (s: MemorySample) =>
  console.error(
    [s.t, s.rss, s.heapTotal, s.heapUsed, s.external, s.arrayBuffers, s.rssAnon ?? NaN, s.rssFile ?? NaN]
      .map((v, i) => (i === 0 ? v.toFixed(0) : (v / MB).toFixed(1)))
      .join('\t') + `\t${s.spaces ?? ''}`,
  )
const settle = () => new Promise((resolve) => setTimeout(resolve, 2000))

export async function benchLoad(): Promise<Figure[]> {
  const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon
  const dataDir = await mkdtemp(join(tmpdir(), 'cadence-load-'))
  const { child, url } = await startServerChild(dataDir)
  try {
    const requests = await mixedRequests(url)
    const start = await askMemory(child, true)
    if (process.env.LOAD_TRACE) trace(start)
    const run = (seconds: number) =>
      autocannon({ url, connections: CONNECTIONS, duration: seconds, requests, timeout: 10 })

    // Warm-up: JIT, SQLite page cache, Fastify's serialisers.
    const warm = await run(WARMUP_S)
    // Heap is compared after a full GC once the load generator's sockets have closed (open keep-alive
    // connections hold their parsers and buffers, which made single readings swing by 10-15 MB).
    await settle()
    const warmEnd = await askMemory(child, true)
    if (process.env.LOAD_TRACE) {
      console.error('t\trss\theapTot\theapUsed\texternal\tarrayBuf\trssAnon\trssFile')
      trace(warmEnd)
    }

    const samples: MemorySample[] = []
    const sampler = setInterval(
      () =>
        void askMemory(child, false).then((s) => {
          samples.push(s)
          if (process.env.LOAD_TRACE) trace(s)
        }),
      1000,
    )
    const result = await run(DURATION_S)
    clearInterval(sampler)
    await settle()
    const end = await askMemory(child, true)
    if (process.env.LOAD_TRACE) trace(end)

    const xs = samples.map((s) => s.t)
    const heapSlope =
      slope(
        xs,
        samples.map((s) => s.heapUsed / MB),
      ) * 60
    const rssSlope =
      slope(
        xs,
        samples.map((s) => s.rss / MB),
      ) * 60
    const errors = result.errors + result.timeouts + result.non2xx + warm.errors + warm.timeouts + warm.non2xx
    const growth = (end.heapUsed - warmEnd.heapUsed) / MB
    return [
      {
        figure: `throughput, ${CONNECTIONS} connections, mixed requests`,
        value: round(result.requests.average, 0),
        unit: 'req/s',
        note: `${result.requests.total} requests in ${result.duration} s`,
      },
      { figure: 'latency p50', value: result.latency.p50, unit: 'ms' },
      { figure: 'latency p99', value: result.latency.p99, unit: 'ms', target: '< 500' },
      { figure: 'latency max', value: result.latency.max, unit: 'ms' },
      {
        figure: 'errors (non-2xx, socket errors, timeouts)',
        value: errors,
        unit: 'count',
        target: '0',
        note: `warm-up ${warm.requests.total} requests included`,
      },
      {
        figure: 'server heap after GC, warm-up end',
        value: round(warmEnd.heapUsed / MB, 1),
        unit: 'MB',
      },
      {
        figure: 'server heap after GC, end of load',
        value: round(end.heapUsed / MB, 1),
        unit: 'MB',
        target: `< warm-up + ${HEAP_GROWTH_LIMIT_MB}`,
      },
      {
        figure: 'server heap growth after warm-up',
        value: round(growth, 2),
        unit: 'MB',
        target: `< ${HEAP_GROWTH_LIMIT_MB}`,
      },
      {
        figure: 'server heap slope under load (no GC forced)',
        value: round(heapSlope, 2),
        unit: 'MB/min',
        note: `${samples.length} samples, 1 s apart`,
      },
      {
        figure: 'server RSS, warm-up end → end',
        value: round(end.rss / MB, 1),
        unit: 'MB',
        note: `from ${round(warmEnd.rss / MB, 1)} MB`,
      },
      { figure: 'server RSS slope under load', value: round(rssSlope, 2), unit: 'MB/min' },
      { figure: 'server RSS at start (before warm-up)', value: round(start.rss / MB, 1), unit: 'MB' },
      {
        figure: 'server V8 heap committed at end (heapTotal)',
        value: round(end.heapTotal / MB, 1),
        unit: 'MB',
        note:
          `of the RSS: ${round((end.rssAnon ?? NaN) / MB, 1)} MB anonymous (V8, malloc: SQLite, the synth ` +
          `worker), ${round((end.rssFile ?? NaN) / MB, 1)} MB file-backed (code, the database's mmap)`,
      },
    ]
  } finally {
    child.send({ type: 'stop' })
    await new Promise((done) => {
      const timer = setTimeout(() => (child.kill('SIGKILL'), done(undefined)), 5000)
      child.once('exit', () => (clearTimeout(timer), done(undefined)))
    })
    await rm(dataDir, { recursive: true, force: true })
  }
}

/** The pass/fail reading of the figures, for `npm run test:load`. */
export function loadMisses(figures: Figure[]): string[] {
  const value = (prefix: string) => figures.find((f) => f.figure.startsWith(prefix))?.value ?? NaN
  const misses: string[] = []
  if (value('errors') !== 0) misses.push(`${value('errors')} errors under load`)
  if (!(value('server heap growth') < HEAP_GROWTH_LIMIT_MB)) {
    misses.push(`server heap grew ${value('server heap growth')} MB after warm-up`)
  }
  return misses
}

const argv = process.argv.slice(2)
if (argv[0] === '--serve') {
  serve(argv[1]).catch((error: unknown) => {
    process.send?.({ type: 'error', message: String(error) })
    process.exit(1)
  })
} else if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const figures = await benchLoad()
  printTable(figures)
  if (argv.includes('--check')) {
    const misses = loadMisses(figures)
    for (const miss of misses) console.error(`MISS: ${miss}`)
    console.log(misses.length ? 'load test FAILED' : 'load test passed')
    process.exit(misses.length ? 1 : 0)
  }
}
