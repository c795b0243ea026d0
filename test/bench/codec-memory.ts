/**
 * `npm run bench:codec` (needs ffmpeg to make the file): the memory a 10-minute lossless song (FLAC,
 * 44.1 kHz stereo 16-bit) takes.
 *
 * 1. The decoder alone (`codec-source.ts`) in a Chromium page fetching from a loopback HTTP server:
 *    the whole song read as playback reads it (5 s at a time, the last 25 s held), as fast as it
 *    decodes; then the same file decoded whole by `decodeAudioData` and held, as FLAC and MP3 played
 *    before. Renderer resident set (`/proc/<pid>/status` VmRSS) above its level before, the most seen.
 * 2. The app (the e2e harness: real renderer, core and reference server with a music folder) playing it
 *    for 20 s while its loudness is measured: the renderer's resident set and JavaScript heap at their
 *    most, and after a garbage collection (what is still held). The harness carries media across a
 *    Playwright binding as base64 text, which Electron does not: its strings are in these peaks.
 * Figures, not assertions.
 */
import { execFileSync } from 'node:child_process'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium } from 'playwright-core'
import type { Page } from 'playwright-core'
import { DEFAULT_SETTINGS } from '@shared/settings'
import { startApp } from '../e2e/harness'
import { audioState, playSongs, songDetail, waitForClock } from '../e2e/playback-support'
import { CHROMIUM_FLAGS, findChromium } from '../support/chromium'
import { openCodecPage } from '../support/codec-page'
import { rangeServer } from '../support/range-server'

const MINUTES = 10

/** Resident memory (MB) of each of our Chromium's renderer processes. */
async function renderers(): Promise<Map<number, number>> {
  const parents = new Map<number, number>()
  const found = new Map<number, number>()
  const pids = (await readdir('/proc')).filter((pid) => /^\d+$/.test(pid)).map(Number)
  for (const pid of pids) {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '')
    parents.set(pid, Number(stat.split(') ')[1]?.split(' ')[1]))
  }
  const ours = (pid: number) => {
    for (let at = parents.get(pid), hops = 0; at && hops < 64; at = parents.get(at), hops++)
      if (at === process.pid) return true
    return false
  }
  for (const pid of pids) {
    const cmd = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')
    if (!cmd.includes('--type=renderer') || !ours(pid)) continue
    const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '')
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0)
    found.set(pid, kb / 1024)
  }
  return found
}

/** The largest renderer's resident set (MB): the app's page. */
const rss = async () => Math.max(0, ...(await renderers()).values())

const heap = (page: Page) =>
  page.evaluate(
    () => (performance as unknown as { memory: { usedJSHeapSize: number } }).memory.usedJSHeapSize / 2 ** 20,
  )

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const mb = (value: number) => `${value.toFixed(1)} MB`

/** The most `rss()` reaches while `work` runs. */
async function peakDuring<T>(work: Promise<T>): Promise<{ result: T; peak: number }> {
  let peak = await rss()
  let running = true
  const sampler = (async () => {
    for (let tick = 0; running; tick++) {
      const now = await rss()
      peak = Math.max(peak, now)
      if (process.env.BENCH_DEBUG && tick % 10 === 0) console.log(`  ${(tick / 10).toFixed(0)} s: ${mb(now)}`)
      await sleep(100)
    }
  })()
  const result = await work.finally(() => (running = false))
  await sampler
  return { result, peak: Math.max(peak, await rss()) }
}

interface CodecWindow {
  codec: {
    streamThrough(
      url: string,
      rate: number,
      hold: number,
      speed: number,
    ): Promise<{ seconds: number; ms: number } | undefined>
    decodeWholeHeld(url: string, rate: number): Promise<number>
    seekCost(
      url: string,
      rate: number,
      positions: number[],
    ): Promise<Array<{ position: number; requests: number; ms: number }> | undefined>
  }
}

async function decoderAlone(bytes: Uint8Array) {
  const media = await rangeServer()
  media.set('/long.flac', bytes)
  const browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_FLAGS })
  try {
    const page = await openCodecPage(browser, media.url)
    const url = `${media.url}/long.flac`
    await sleep(2000)
    const cdp = await page.context().newCDPSession(page)
    const runs = []
    // At 20 times as fast as it plays (30 s), then as fast as it decodes.
    for (const speed of [20, Infinity]) {
      await cdp.send('HeapProfiler.collectGarbage')
      await sleep(1000)
      const before = await rss()
      const streamed = await peakDuring(
        page.evaluate(
          ([url, speed]) => (window as unknown as CodecWindow).codec.streamThrough(url, 44100, 25, speed),
          [url, speed] as const,
        ),
      )
      await cdp.send('HeapProfiler.collectGarbage')
      await sleep(1000)
      const after = await rss()
      const left = (await cdp.send('Runtime.getHeapUsage')) as {
        usedSize: number
        backingStorageSize?: number
      }
      runs.push({ speed, before, ...streamed, after, left })
    }
    const seeks = await page.evaluate(
      (url) => (window as unknown as CodecWindow).codec.seekCost(url, 44100, [100, 300, 450.5, 20, 599]),
      url,
    )
    await cdp.send('HeapProfiler.collectGarbage')
    await sleep(1000)
    const wholeBefore = await rss()
    const whole = await peakDuring(
      page.evaluate((url) => (window as unknown as CodecWindow).codec.decodeWholeHeld(url, 44100), url),
    )
    await sleep(1000)
    const held = await rss()
    console.log(`1. The decoder alone, in a page fetching from loopback HTTP:`)
    for (const run of runs) {
      console.log(
        `  streamed (codec-source.ts): ${run.result?.seconds.toFixed(0)} s of song read in ` +
          `${((run.result?.ms ?? 0) / 1000).toFixed(1)} s, the last 25 s held; renderer resident set ` +
          `at most +${mb(run.peak - run.before)} (${mb(run.before)} before); after a garbage collection ` +
          `+${mb(run.after - run.before)}, the page's JavaScript heap ${mb(run.left.usedSize / 2 ** 20)} and ` +
          `array buffers ${mb((run.left.backingStorageSize ?? 0) / 2 ** 20)}`,
      )
    }
    console.log(
      `  seeks to ${seeks?.map((seek) => `${seek.position} s`).join(', ')}: range requests ` +
        `${seeks?.map((seek) => seek.requests).join(', ')}; first 0.25 s decoded after ` +
        `${seeks?.map((seek) => `${seek.ms.toFixed(0)}`).join(', ')} ms (loopback)`,
    )
    console.log(
      `  decoded whole (decodeAudioData, the way before): ${mb(whole.result / 2 ** 20)} of samples; ` +
        `renderer resident set at most +${mb(whole.peak - wholeBefore)}, held +${mb(held - wholeBefore)}`,
    )
  } finally {
    await browser.close()
    await media.close()
  }
}

async function inTheApp(library: string, size: number) {
  const app = await startApp({
    demo: 0,
    server: { library },
    chromiumArgs: ['--enable-precise-memory-info'],
    ...(process.env.BENCH_LOUDNESS_OFF
      ? { store: { settings: { ...DEFAULT_SETTINGS, loudness: 'off' } } }
      : {}),
  })
  try {
    const { page } = app
    const song = await songDetail(app, 1)
    await page.getByTestId('now-playing').waitFor()
    await sleep(3000)
    const before = { rss: await rss(), heap: await heap(page) }
    await playSongs(page, [song])
    await waitForClock(page, 0.5)
    let most = { rss: 0, heap: 0 }
    for (let second = 0; second < 20; second++) {
      await sleep(1000)
      most = { rss: Math.max(most.rss, await rss()), heap: Math.max(most.heap, await heap(page)) }
    }
    const cdp = await page.context().newCDPSession(page)
    await cdp.send('HeapProfiler.collectGarbage')
    await sleep(1000)
    const live = { rss: await rss(), heap: await heap(page) }
    const playing = await audioState(page)
    const bytes = app.mediaRequests.reduce((sum, request) => {
      const match = /bytes=(\d+)-(\d+)/.exec(request.range ?? '')
      return sum + (match ? Number(match[2]) - Number(match[1]) + 1 : size)
    }, 0)
    console.log(
      `2. The app playing it for 20 s${process.env.BENCH_LOUDNESS_OFF ? ' (loudness off)' : ', its loudness measured meanwhile'}:`,
    )
    console.log(`  still playing: ${!playing.paused}, at ${playing.time.toFixed(1)} s`)
    console.log(`  renderer resident set: at most +${mb(most.rss - before.rss)} (${mb(before.rss)} before)`)
    console.log(`  JavaScript heap: at most +${mb(most.heap - before.heap)}`)
    console.log(
      `  after a garbage collection: resident +${mb(live.rss - before.rss)}, heap +${mb(live.heap - before.heap)}`,
    )
    console.log(`  bytes fetched: ${mb(bytes / 2 ** 20)} in ${app.mediaRequests.length} ranged requests`)
  } finally {
    await app.close()
  }
}

async function main() {
  const library = await mkdtemp(join(tmpdir(), 'cadence-bench-library-'))
  const file = join(library, 'long.flac')
  try {
    // Music-like content for a lossless coder: tones with noise under them (about 600 kbit/s).
    execFileSync('ffmpeg', [
      ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi'],
      ...[
        '-i',
        `aevalsrc=0.3*sin(2*PI*(220+20*sin(2*PI*0.1*t))*t)|0.3*sin(2*PI*330*t):s=44100:d=${MINUTES * 60}`,
      ],
      ...['-f', 'lavfi', '-i', `anoisesrc=color=pink:amplitude=0.08:r=44100:d=${MINUTES * 60}`],
      ...['-filter_complex', '[1]asplit[n1][n2];[n1][n2]amerge[n];[0][n]amix=inputs=2:normalize=0'],
      ...['-sample_fmt', 's16', '-c:a', 'flac', '-metadata', 'title=Long FLAC', file],
    ])
    const bytes = new Uint8Array(await readFile(file))
    console.log(`A ${MINUTES}-minute FLAC: ${mb(bytes.length / 2 ** 20)}, 44.1 kHz stereo 16-bit`)
    await decoderAlone(bytes)
    await inTheApp(library, bytes.length)
  } finally {
    await rm(library, { recursive: true, force: true })
  }
}

main().catch((error) => {
  console.error(error)
  process.exitCode = 1
})
