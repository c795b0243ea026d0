import { spawn } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium } from 'playwright-core'
import type { Page } from 'playwright-core'
import type { Song } from '@shared/api/models'
import { chooseGainDb, DEFAULT_LOUDNESS_TARGET } from '@shared/audio/gain'
import type { Measured } from '@shared/audio/gain'
import { createLoudnessMeter } from '@shared/audio/loudness'
import { startDataSource } from '@server/index'
import { CHROMIUM_FLAGS, findChromium, startApp } from '../e2e/harness'
import type { App } from '../e2e/harness'
import { findSongs, playSongs, playable, waitForClock } from '../e2e/playback-support'
import { confirmOnPhone, OWNER_PASSPHRASE } from '../support/phone'
import { startQuirkProxy } from '../support/quirk-proxy'
import { startNullSink } from './pulse'
import { playFloorTone, processKind, readProcessTable, readThreads } from './cpu'
import { SECTIONS, soundSections } from './audio-sections'
import { printTable } from './stats'
import {
  dropouts,
  dropoutsAcross,
  firstSound,
  fmt,
  median,
  ms,
  RATE,
  Recorder,
  silentAt,
  SILENT,
  sleep,
  silenceRuns,
  started,
  unmatchedIndices,
} from './audio-record'

/**
 * `npm run bench:audio`: the app's sound, recorded. A private PulseAudio with one null sink as its only
 * output; Chromium (the e2e harness: real renderer, core and reference server) started without
 * `--mute-audio` and pointed at it; the sink's monitor recorded with `parec` (48 kHz, s16le, stereo).
 * Each figure's method and the runs are in docs/bench/playback-results.md. Figures, not pass/fail.
 * After this file's run (`main`), the sections of `audio-sections.ts` (a gapless album, speed changes,
 * a crossfade, the equaliser's response) in an app of their own; `--only` picks sections.
 * Needs `npx electron-vite build`, pulseaudio and pulseaudio-utils.
 */

/** `--before`: the element engine the app had before issue 22, for the before/after table. */
const before = process.argv.includes('--before')
/**
 * `--quirks`: the same run against a NeteaseMusicAdapter-like data source (the reference server behind
 * `test/support/quirk-proxy.ts`: its failures, shapes and extensions, songs only for a signed-in user),
 * signed in through the QR window as a person does.
 */
const quirks = process.argv.includes('--quirks')
/** The longer loudness stretch (s): each song heard this long once its gain is set. */
const LONG_SECONDS = 12
/** Where the three seeks go (s into the last song). */
const SEEK_TARGETS_S = [5, 10, 15]
/** BENCH_CHROMIUM_ARGS: extra Chromium flags, to compare (e.g. `--audio-buffer-size=128`). */
const EXTRA_CHROMIUM_ARGS = (process.env.BENCH_CHROMIUM_ARGS ?? '').split(' ').filter(Boolean)
/**
 * `-- --only main,gapless-album,speed,crossfade,eq`: the sections to run (default: every one). `main` is
 * this file's run (`main` below) on the built-in (or `--quirks`) source with its floors; the others
 * (`audio-sections.ts`) run in one app of their own on the reference source serving a music folder of
 * test signals.
 */
const onlyAt = process.argv.indexOf('--only')
const only = onlyAt >= 0 ? (process.argv[onlyAt + 1] ?? '').split(',').filter(Boolean) : undefined
const unknown = (only ?? []).filter(
  (name) => name !== 'main' && !(SECTIONS as readonly string[]).includes(name),
)
if (unknown.length) throw new Error(`--only: no section ${unknown.join(', ')} (main, ${SECTIONS.join(', ')})`)
const root = await mkdtemp(join(tmpdir(), 'cadence-bench-audio-'))
const sink = await startNullSink(root, RATE)
const PULSE_SERVER = sink.server

/** The longest run of silence in [from, to): its start and length in frames. */
function longestSilence(rec: Float32Array[], from: number, to: number): { start: number; length: number } {
  let best = { start: from, length: 0 }
  let runStart = -1
  for (let i = Math.max(0, from); i < Math.min(to, rec[0].length); i++) {
    if (silentAt(rec, i)) {
      if (runStart < 0) runStart = i
      if (i - runStart + 1 > best.length) best = { start: runStart, length: i - runStart + 1 }
    } else runStart = -1
  }
  return best
}

/** The first run of silence of at least `min` frames in [from, to). */
function firstSilence(
  rec: Float32Array[],
  from: number,
  to: number,
  min: number,
): { start: number; length: number } {
  let runStart = -1
  for (let i = Math.max(0, from); i < Math.min(to, rec[0].length); i++) {
    if (silentAt(rec, i)) {
      if (runStart < 0) runStart = i
    } else {
      if (runStart >= 0 && i - runStart >= min) return { start: runStart, length: i - runStart }
      runStart = -1
    }
  }
  // A silence still running at the window's end (a pause) counts from where it began.
  if (runStart >= 0 && to - runStart >= min) return { start: runStart, length: to - runStart }
  return { start: to, length: 0 }
}

/**
 * Where the file's sound from `fromSeconds` (its next 40 ms, left channel, resampled to the recording's
 * rate) is heard in the recording, searched over frames [from, to): the recording's frame of
 * `fromSeconds`, and the normalised correlation there (gain-independent: 1 is the same waveform).
 */
function findInRecording(
  rec: Float32Array[],
  file: { rate: number; channels: Float32Array[] },
  fromSeconds: number,
  from: number,
  to: number,
): { frame: number; correlation: number } {
  const n = Math.round(0.04 * RATE)
  const source = file.channels[0]
  const snippet = new Float32Array(n)
  for (let i = 0; i < n; i++) {
    const x = (fromSeconds + i / RATE) * file.rate
    const j = Math.floor(x)
    snippet[i] = (source[j] ?? 0) * (1 - (x - j)) + (source[j + 1] ?? 0) * (x - j)
  }
  const energy = snippet.reduce((sum, v) => sum + v * v, 0)
  const left = rec[0]
  let best = { frame: Number.NaN, correlation: -1 }
  for (let at = Math.max(0, from); at < to && at + n <= left.length; at++) {
    let dot = 0
    let own = 0
    for (let i = 0; i < n; i++) {
      dot += left[at + i] * snippet[i]
      own += left[at + i] ** 2
    }
    const correlation = dot / Math.sqrt(own * energy || 1e-30)
    if (correlation > best.correlation) best = { frame: at, correlation }
  }
  return best
}

/** RMS in dBFS of `frames` frames from `at`. */
function rmsDb(rec: Float32Array[], at: number, frames: number): number {
  let sum = 0
  for (let i = at; i < at + frames; i++) sum += (rec[0][i] ** 2 + rec[1][i] ** 2) / 2
  return 10 * Math.log10(sum / frames + 1e-20)
}

/** A WAV file's rate and its channels as floats (16-bit PCM: the demo source's files). */
async function filePcm(app: App, song: Song): Promise<{ rate: number; channels: Float32Array[] }> {
  const bytes = Buffer.from(await (await app.core.media(new Request(song.meta!.url!))).arrayBuffer())
  const rate = bytes.readUInt32LE(24)
  const count = bytes.readUInt16LE(22)
  const data = bytes.indexOf('data') + 8
  const frames = Math.floor((bytes.length - data) / (2 * count))
  const channels = Array.from({ length: count }, () => new Float32Array(frames))
  for (let f = 0; f < frames; f++)
    for (let c = 0; c < count; c++) channels[c][f] = bytes.readInt16LE(data + (f * count + c) * 2) / 32768
  return { rate, channels }
}

/** Integrated loudness (LUFS) of `channels` from `from` to `to` seconds at `rate`. */
function loudnessOf(channels: Float32Array[], rate: number, from: number, to: number): number {
  const meter = createLoudnessMeter(rate, channels.length)
  meter.push(channels.map((c) => c.subarray(Math.max(0, Math.round(from * rate)), Math.round(to * rate))))
  return meter.result().integrated
}

/** A file's own silent head and tail (ms), at the same threshold, from its WAV data. */
async function fileSilence(app: App, song: Song): Promise<{ head: number; tail: number }> {
  const bytes = Buffer.from(await (await app.core.media(new Request(song.meta!.url!))).arrayBuffer())
  const rate = bytes.readUInt32LE(24)
  const channels = bytes.readUInt16LE(22)
  const data = bytes.indexOf('data') + 8
  const frames = Math.floor((bytes.length - data) / (2 * channels))
  const loud = (f: number) => {
    for (let c = 0; c < channels; c++)
      if (Math.abs(bytes.readInt16LE(data + (f * channels + c) * 2)) / 32768 >= SILENT) return true
    return false
  }
  let head = 0
  while (head < frames && !loud(head)) head++
  let tail = 0
  while (tail < frames && !loud(frames - 1 - tail)) tail++
  return { head: (head / rate) * 1000, tail: (tail / rate) * 1000 }
}

async function playerCall(page: Page, action: string, arg?: number) {
  await page.evaluate(
    ([what, value]) => {
      const root = document.querySelector('#app') as unknown as {
        __vue_app__: {
          config: {
            globalProperties: { $pinia: { _s: Map<string, Record<string, (x?: number) => unknown>> } }
          }
        }
      }
      const player = root.__vue_app__.config.globalProperties.$pinia._s.get('player')!
      void player[what as string](value as number | undefined)
    },
    [action, arg] as const,
  )
}

/**
 * CPU time (% of one core) of the browser's processes over `ms`: the processes descended from this one
 * (Chromium, which Playwright starts as our child; not pulseaudio or parec), each counted by its own difference, plus what the
 * surviving ones reaped from children that ended meanwhile (cutime, cstime). Not every process named
 * chromium: other jobs on a shared machine run Playwright's Chromium too, and a process that ends
 * between the two readings must not take its whole life's CPU time away from the sum.
 */
/** The page's media requests (count, bytes) so far. */
const mediaSoFar = (page: Page) =>
  page.evaluate('({ ...window.__benchMedia })') as Promise<{ requests: number; bytes: number }>

/** CPU over `ms` (below) and the media requests made meanwhile. */
async function cpuAndMedia(page: Page, ms: number) {
  const before = await mediaSoFar(page)
  const cpu = await cpuOver(ms)
  const after = await mediaSoFar(page)
  return { ...cpu, requests: after.requests - before.requests, bytes: after.bytes - before.bytes }
}

async function cpuOver(ms: number): Promise<{ ours: number; old: number; kinds: string; threads: string }> {
  const ticks = async () => {
    const { all: stats, descends } = await readProcessTable()
    const ours = new Map<number, { own: number; reaped: number; cmd: string }>()
    // The method before: every process on the machine whose command line names chromium and
    // playwright, summed (a process that ended took its whole life's time away).
    let old = 0
    for (const [pid, stat] of stats) {
      if (stat.cmd.includes('chromium') && stat.cmd.includes('playwright')) old += stat.own
      // Chromium's processes, not pulseaudio or parec (also our children).
      if (stat.cmd.includes('chromium') && descends(pid)) ours.set(pid, stat)
    }
    // The renderers' threads, by name (the page's main thread, the audio device's, the compositor's…).
    const threads = new Map<string, number>()
    for (const [pid, stat] of ours) {
      if (processKind(stat.cmd) === 'renderer') await readThreads(pid, threads)
    }
    return { ours, old, threads }
  }
  const before = await ticks()
  await sleep(ms)
  const after = await ticks()
  const byThread = new Map<string, number>()
  for (const [key, t] of after.threads) {
    const name = key.slice(key.indexOf(' ') + 1)
    byThread.set(name, (byThread.get(name) ?? 0) + t - (before.threads.get(key) ?? 0))
  }
  let total = 0
  const byKind = new Map<string, number>()
  for (const [pid, stat] of after.ours) {
    const was = before.ours.get(pid) ?? { own: 0, reaped: 0 }
    const used = stat.own - was.own + stat.reaped - was.reaped
    total += used
    byKind.set(processKind(stat.cmd), (byKind.get(processKind(stat.cmd)) ?? 0) + used)
  }
  // Clock ticks (USER_HZ, 100 on Linux) per second = % of one core.
  const percent = (t: number) => t / (ms / 1000)
  const kinds = [...byKind].filter(([, t]) => t > 0).map(([kind, t]) => `${kind} ${fmt(percent(t))}`)
  const threads = [...byThread]
    .filter(([, t]) => t > 0)
    .sort((a, b) => b[1] - a[1])
    .map(([name, t]) => `${name} ${fmt(percent(t))}`)
  return {
    ours: percent(total),
    old: percent(after.old - before.old),
    kinds: kinds.join(', '),
    threads: threads.join(', '),
  }
}

/** The app, on the built-in demo source or (`--quirks`) on the netease-like one, signed in. */
async function startTarget(): Promise<{ app: App; close(): Promise<void> }> {
  const audible = {
    audible: true,
    chromiumEnv: { PULSE_SERVER },
    chromiumArgs: EXTRA_CHROMIUM_ARGS,
  }
  if (!quirks) {
    const app = await startApp(audible)
    return { app, close: () => app.close() }
  }
  const server = await startDataSource({
    ownerPassphrase: OWNER_PASSPHRASE,
    dataDir: join(root, 'source'),
    port: 0,
    demo: 300,
    ownerName: 'Bench Owner',
  })
  const proxy = await startQuirkProxy(server.url, 'netease', {
    requireUid: true,
    shapes: true,
    extensions: true,
  })
  const app = await startApp({ ...audible, sourceUrl: proxy.url })
  const close = async () => {
    await app.close()
    await proxy.close()
    await server.close()
  }
  try {
    await app.page.getByTestId('sidebar-login').click()
    while (!app.loginPage()) await sleep(100)
    const qr = app.loginPage()!.getByTestId('qr-image')
    await qr.waitFor()
    const confirmed = await confirmOnPhone((await qr.getAttribute('data-qrurl'))!)
    if (confirmed.status !== 200) throw new Error(`the phone's confirmation failed: HTTP ${confirmed.status}`)
    await app.page.getByTestId('sidebar-account').getByText('Bench Owner').waitFor({ timeout: 15_000 })
  } catch (error) {
    await close()
    throw error
  }
  return { app, close }
}

/** Keeps one core busy (another process, as a listener's other work): stop() kills it by its id. */
function busyCore(): { stop(): void } {
  const child = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' })
  return { stop: () => void child.kill('SIGKILL') }
}

/** Seconds of each loaded run (the app's and the blank page's). */
const LOADED_SECONDS = 30
/** The files' own silences are looked for this much beyond the loaded run's stretch, either way. */
const OWN_MARGIN_SECONDS = 0.5

/** Chromium's output underruns (`AudioContext.playbackStats`) of the page's kept contexts, summed. */
const underrunsOf = (page: Page, contexts: string) =>
  page.evaluate(`(() => {
    const stats = (${contexts} || []).map((c) => c.playbackStats).filter(Boolean)
    let events = 0, duration = 0
    for (const s of stats) { events += s.underrunEvents; duration += s.underrunDuration }
    return { events, ms: duration * 1000 }
  })()`) as Promise<{ events: number; ms: number }>

interface Floor {
  cpu: Awaited<ReturnType<typeof cpuOver>>
  heardMs: number[]
  loaded: {
    cpu: Awaited<ReturnType<typeof cpuOver>>
    dropouts: number[]
    underruns: { events: number; ms: number }
  }
  underruns: { events: number; ms: number }
}

/**
 * The floors under the CPU and latency figures: the same Chromium (flags, PulseAudio sink), a blank page
 * playing a looped 440 Hz tone through a gain and a `DynamicsCompressorNode` at `latencyHint:
 * 'interactive'`, as the app's output does. CPU over 8 s from 3 s after it starts: what Chromium's audio
 * path costs on this machine before any of the app's work. Then the tone is silenced and, five times, a
 * click (a real mouse press and release on the page's button) schedules a burst at the context's
 * `currentTime` (as the app schedules a start), found in the recording: how long after a click the device
 * plays what the page scheduled at once. Last, the tone again for `LOADED_SECONDS` while another process
 * keeps one core busy: its drop-outs (silences of 1 ms or more in a tone that has none), Chromium's
 * underruns and the CPU.
 */
async function floors(): Promise<Floor> {
  const browser = await chromium.launch({
    executablePath: findChromium(),
    args: [...CHROMIUM_FLAGS, ...EXTRA_CHROMIUM_ARGS],
    env: { ...process.env, PULSE_SERVER } as Record<string, string>,
    ignoreDefaultArgs: ['--mute-audio'],
  })
  const recorder = new Recorder(PULSE_SERVER)
  try {
    const page = await browser.newPage()
    await page.setContent(
      '<button style="position:fixed;left:0;top:0;width:200px;height:100px">play</button>',
    )
    await page.click('button')
    await playFloorTone(page)
    await page.evaluate(() => {
      const { floorContext: context, floorGain: gain } = window as unknown as {
        floorContext: AudioContext
        floorGain: GainNode
      }
      document.querySelector('button')!.addEventListener('click', () => {
        const at = context.currentTime
        gain.gain.setValueAtTime(0.3, at)
        gain.gain.setValueAtTime(0, at + 0.1)
      })
    })
    await sleep(3000)
    const cpu = await cpuOver(8000)
    recorder.start()
    await page.evaluate('floorGain.gain.setValueAtTime(0, floorContext.currentTime)')
    const marks: number[] = []
    for (let i = 0; i < 5; i++) {
      await sleep(400)
      marks.push(Date.now())
      await page.mouse.click(100, 50)
    }
    await sleep(500)
    // The tone again, under load.
    await page.evaluate('floorGain.gain.setValueAtTime(0.3, floorContext.currentTime)')
    await sleep(500)
    const underrunsBefore = await underrunsOf(page, 'floorContexts')
    const busy = busyCore()
    const loadedFrom = Date.now()
    let loadedCpu: Awaited<ReturnType<typeof cpuOver>>
    try {
      loadedCpu = await cpuOver(LOADED_SECONDS * 1000)
    } finally {
      busy.stop()
    }
    const loadedTo = Date.now()
    const underrunsAfter = await underrunsOf(page, 'floorContexts')
    const rec = recorder.stop()
    const heardMs = marks.map((at) => {
      const from = recorder.frameAt(at)
      return ms(firstSound(rec, from, from + RATE / 3) - from)
    })
    return {
      cpu,
      heardMs,
      loaded: {
        cpu: loadedCpu,
        dropouts: dropouts(rec, recorder.frameAt(loadedFrom), recorder.frameAt(loadedTo)),
        underruns: {
          events: underrunsAfter.events - underrunsBefore.events,
          ms: underrunsAfter.ms - underrunsBefore.ms,
        },
      },
      underruns: underrunsAfter,
    }
  } finally {
    recorder.stop()
    await browser.close()
  }
}

/**
 * Double-click → first audible sample as a person does it, on a playlist page: the first press, 150 ms
 * later the second (whose release is the `dblclick`), timed from the second press. Rows 2–6 of the
 * first playlist, each from silence. The files' own silent heads (1–2 ms for the demo songs) are not
 * subtracted.
 */
async function doubleClicks(app: App): Promise<{ marks: number[]; clock: number[] }> {
  await app.page.getByTestId('nav-home').click()
  await app.page.getByTestId('playlist-card').first().click()
  const rows = app.page.getByTestId('song-row')
  await rows.nth(6).waitFor()
  const marks: number[] = []
  const clock: number[] = []
  for (let i = 1; i <= 5; i++) {
    const name = app.page.getByTestId('song-row').nth(i).getByTestId('song-name')
    // The page may still be settling after the rows appear (its box is null until the row is shown).
    await name.waitFor({ state: 'visible' })
    const box = (await name.boundingBox())!
    const x = box.x + Math.min(20, box.width / 2)
    const y = box.y + box.height / 2
    await app.page.mouse.move(x, y)
    await app.page.mouse.down()
    await app.page.mouse.up()
    await sleep(150)
    const pageMark = (await app.page.evaluate('performance.now()')) as number
    marks.push(Date.now())
    await app.page.mouse.down({ clickCount: 2 })
    await app.page.mouse.up({ clickCount: 2 })
    await waitForClock(app.page, 0.6)
    clock.push(
      (await app.page.evaluate(`(() => {
        const first = window.__benchStarts.find((s) => s.called >= ${pageMark})
        if (!first) return NaN
        const stamp = first.context.getOutputTimestamp()
        return stamp.performanceTime + (first.at - stamp.contextTime) * 1000 - ${pageMark}
      })()`)) as number,
    )
    await playerCall(app.page, 'pause')
    await sleep(600)
  }
  return { marks, clock }
}

async function main() {
  const target = await startTarget()
  const { app } = target
  let closed = false
  const close = async () => {
    if (closed) return
    closed = true
    await target.close()
  }
  if (before) {
    // "Before": the <audio> element engine, as the app played until issue 22 (no Web Audio).
    await app.page.addInitScript(() => {
      delete (window as { AudioContext?: unknown }).AudioContext
    })
    await app.page.reload()
  }
  // Chromium's own count of the output's underruns (`AudioContext.playbackStats`, where the browser has
  // it): the page's contexts are kept to read it at the end.
  // (Strings: tsx's helpers for named functions do not exist in the page.)
  await app.page.addInitScript(`(() => {
    const Native = window.AudioContext
    if (!Native) return
    const kept = (window.__benchContexts = [])
    // Every AudioBufferSourceNode.start(at), for the click figure on the audio clock.
    const starts = (window.__benchStarts = [])
    const start = AudioBufferSourceNode.prototype.start
    AudioBufferSourceNode.prototype.start = function (...args) {
      starts.push({ at: args[0] ?? 0, called: performance.now(), context: this.context })
      return start.apply(this, args)
    }
    // Media requests on the app's scheme (each through Chromium's network stack to main's handler, as in Electron).
    const media = (window.__benchMedia = { requests: 0, bytes: 0 })
    // When each media request began and how long it took (a click's first one is on its path).
    const timed = (window.__benchTimed = [])
    const fetchBefore = window.fetch
    window.fetch = async (...args) => {
      const began = performance.now()
      const answer = await fetchBefore(...args)
      const url = String(args[0] instanceof Request ? args[0].url : args[0])
      if (url.startsWith('cadence-media:')) {
        media.requests++
        media.bytes += Number(answer.headers.get('content-length') ?? 0)
        timed.push({ began, ms: performance.now() - began })
      }
      return answer
    }
    window.AudioContext = class extends Native {
      constructor(options) {
        super(options)
        kept.push(this)
      }
    }
  })()`)
  await app.page.reload()
  const t0 = Date.now()
  const recorder = new Recorder(PULSE_SERVER)
  const marks: Record<string, number[]> = {
    boundary: [],
    pause: [],
    resume: [],
    seek: [],
    click: [],
    loud: [],
  }
  try {
    const songs = (await findSongs(app, 7, playable))
      .filter((song) => (song.duration ?? 0) > 20_000)
      .slice(0, 6)
    const silences = await Promise.all(songs.map((song) => fileSilence(app, song)))
    await app.page.getByTestId('now-playing').waitFor()
    recorder.start()
    await sleep(500)

    // Click → first audible sample, 5 times: a song not yet resolved, from silence.
    const clockClicks: number[] = []
    // The click's first media range, timed in the page: through Chromium's network stack to main's
    // handler, as Electron's protocol.handle path (the song's resolve crosses the IPC bridge, which cannot
    // be timed from the page: the bridge object is frozen, as contextBridge makes it).
    const firstRanges: number[] = []
    for (const song of songs.slice(0, 5)) {
      const pageMark = (await app.page.evaluate('performance.now()')) as number
      marks.click.push(Date.now())
      await playSongs(app.page, [song])
      await waitForClock(app.page, 0.6)
      firstRanges.push(
        (await app.page.evaluate(
          `window.__benchTimed.find((t) => t.began >= ${pageMark})?.ms ?? NaN`,
        )) as number,
      )
      // The same click on the audio clock: the song's first start(at), mapped to the page's clock with
      // getOutputTimestamp() (which includes the device's latency).
      clockClicks.push(
        (await app.page.evaluate(`(() => {
          const first = window.__benchStarts.find((s) => s.called >= ${pageMark})
          if (!first) return NaN
          const stamp = first.context.getOutputTimestamp()
          return stamp.performanceTime + (first.at - stamp.contextTime) * 1000 - ${pageMark}
        })()`)) as number,
      )
      await playerCall(app.page, 'pause')
      await sleep(600)
    }

    // The same from a real double-click on a playlist's rows.
    const double = await doubleClicks(app)

    if (process.env.BENCH_DEBUG) {
      app.page.on('console', (m) => console.log('page:', m.text()))
      await app.page.evaluate(() => {
        const face = document.querySelector('[data-testid="player-audio"]')!
        for (const t of ['ended', 'pause', 'playing', 'seeked', 'error'])
          face.addEventListener(t, () =>
            console.log(t, (face as HTMLAudioElement).currentTime, (face as HTMLAudioElement).src),
          )
      })
    }
    // Loudness as heard once each song is measured (the clicks above started the measuring).
    await app.page.waitForFunction(
      (count) =>
        Object.keys(localStorage).filter((key) => key.startsWith('cadence.loudness.')).length >= count,
      before ? 0 : 5,
      { timeout: 120_000, polling: 500 },
    )
    // Each song's stored measurement, and the song position at a known wall time (once its gain is set).
    const stored = await app.page.evaluate(() =>
      Object.fromEntries(
        Object.keys(localStorage)
          .filter((key) => key.startsWith('cadence.loudness.'))
          .map((key) => [key, JSON.parse(localStorage.getItem(key)!) as Measured]),
      ),
    )
    const settled: { wall: number; position: number }[] = []
    for (const song of songs.slice(0, 5)) {
      marks.loud.push(Date.now())
      await playSongs(app.page, [song])
      await waitForClock(app.page, 1)
      settled.push(
        await app.page.getByTestId('player-audio').evaluate((el) => ({
          wall: Date.now(),
          position: (el as HTMLAudioElement).currentTime,
        })),
      )
      await waitForClock(app.page, 1 + LONG_SECONDS + 0.2, LONG_SECONDS * 1000 + 15_000)
      await playerCall(app.page, 'pause')
      await sleep(300)
    }

    // Five song boundaries: each song sought to 2 s before its end, then left to run into the next.
    await playSongs(app.page, songs)
    for (let i = 0; i < songs.length - 1; i++) {
      if (process.env.BENCH_DEBUG) console.log('boundary', i, songs[i].name, songs[i].duration)
      await waitForClock(app.page, 0.2)
      await playerCall(app.page, 'seek', (songs[i].duration ?? 0) - 2000)
      await app.page
        .getByTestId('player-title')
        .getByText(songs[i + 1].name, { exact: true })
        .waitFor()
      marks.boundary.push(Date.now())
      await sleep(800)
    }
    // Pause and resume, three times; seek forward 30 s three times.
    for (let i = 0; i < 3; i++) {
      await sleep(700)
      marks.pause.push(Date.now())
      await playerCall(app.page, 'pause')
      await sleep(500)
      marks.resume.push(Date.now())
      await playerCall(app.page, 'play')
    }
    for (let i = 0; i < 3; i++) {
      await sleep(700)
      marks.seek.push(Date.now())
      await playerCall(app.page, 'seek', SEEK_TARGETS_S[i] * 1000)
    }
    await sleep(1000)
    // CPU while playing: the now-playing screen, then a list page. The queue again from its first song
    // (the last one, sought to 15 s above, would end within the windows and stop the player).
    const cpuWindowsStart = Date.now()
    await playSongs(app.page, songs)
    await waitForClock(app.page, 0.3)
    await app.page
      .getByTestId('player-cover')
      .click()
      .catch(() => undefined)
    // Steady state: the screen's opening (its transition, lyrics and cover arriving) is over by then;
    // the first 0.5–3 s are measured apart, as they were before.
    await sleep(500)
    const cpuNowPlayingOpening = await cpuOver(2500)
    const cpuNowPlaying = await cpuAndMedia(app.page, 8000)
    await app.page.keyboard.press('Escape')
    await app.page
      .getByTestId('nav-home')
      .click()
      .catch(() => undefined)
    await app.page
      .getByTestId('playlist-card')
      .first()
      .click()
      .catch(() => undefined)
    await sleep(500)
    const cpuListOpening = await cpuOver(2500)
    const cpuList = await cpuAndMedia(app.page, 8000)
    // The loaded run: LOADED_SECONDS more on the list page while another process keeps one core busy.
    const countsNow = async () => {
      const data = await app.page
        .getByTestId('player-audio')
        .evaluate((el) => ({ ...(el as HTMLElement).dataset }))
        .catch(() => ({}) as DOMStringMap)
      return {
        late: Number(data.underruns ?? '0'),
        ...(await underrunsOf(app.page, 'window.__benchContexts')),
      }
    }
    const loadedBefore = await countsNow()
    // Where the queue is, to find the files' own silences over the loaded stretch.
    const loadedFrom = {
      position: await app.page
        .getByTestId('player-audio')
        .evaluate((el) => (el as HTMLAudioElement).currentTime),
      title: await app.page.getByTestId('player-title').innerText(),
    }
    // The window is the floor's: from the load's start to its end (the counters are read outside it).
    const loadedWindowStart = Date.now()
    const busy = busyCore()
    let cpuLoaded: Awaited<ReturnType<typeof cpuOver>>
    try {
      cpuLoaded = await cpuOver(LOADED_SECONDS * 1000)
    } finally {
      busy.stop()
    }
    const loadedWindowEnd = Date.now()
    const loadedAfter = await countsNow()
    const stillPlaying = await app.page
      .getByTestId('player-audio')
      .evaluate((el) => !(el as HTMLAudioElement).paused)
    const rec = recorder.stop()
    // BENCH_SAVE=<folder>: the recording (left then right, float32) and the moments, to look at afterwards.
    if (process.env.BENCH_SAVE) {
      await writeFile(join(process.env.BENCH_SAVE, 'left.f32'), Buffer.from(rec[0].buffer))
      await writeFile(join(process.env.BENCH_SAVE, 'right.f32'), Buffer.from(rec[1].buffer))
      await writeFile(
        join(process.env.BENCH_SAVE, 'marks.json'),
        JSON.stringify({ startMs: recorder.startMs, rate: RATE, marks }),
      )
    }

    // ---- figures ----
    // The file's own silent head is the music's, not the player's (as at the boundaries).
    const clicks = marks.click.map((at, n) => {
      const from = recorder.frameAt(at)
      return ms(firstSound(rec, from) - from) - silences[n].head
    })
    // Drop-outs under load: runs of silence of 1 ms or more in the recording, less the files' own over
    // the same stretch of the queue (from the song and position playing when the loaded run began).
    const heardAt = silenceRuns([
      {
        channels: rec,
        from: recorder.frameAt(loadedWindowStart),
        to: recorder.frameAt(loadedWindowEnd),
        rate: RATE,
      },
    ])
    const heardRuns = heardAt.map((run) => run.ms)
    // The files one after the other, as they are heard: a silent tail and the next file's silent head
    // are one run at a gapless boundary.
    const ownPieces: Parameters<typeof dropoutsAcross>[0] = []
    /** How far before the window's start the files' stretch begins (s). */
    let ownLead = 0
    {
      // Half a second more of the files either way: the position is read a little after the window
      // opened, and a file's silence just outside the stretch would otherwise count as a drop-out
      // (unmatched files' runs cost nothing).
      let index = songs.findIndex((song) => song.name === loadedFrom.title)
      let position = Math.max(0, loadedFrom.position - OWN_MARGIN_SECONDS)
      ownLead = loadedFrom.position - position
      let left = (loadedWindowEnd - loadedWindowStart) / 1000 + 2 * OWN_MARGIN_SECONDS
      while (index >= 0 && index < songs.length && left > 0) {
        const pcm = await filePcm(app, songs[index])
        const span = Math.min(left, pcm.channels[0].length / pcm.rate - position)
        ownPieces.push({
          channels: pcm.channels.length > 1 ? pcm.channels : [pcm.channels[0], pcm.channels[0]],
          from: Math.round(position * pcm.rate),
          to: Math.round((position + span) * pcm.rate),
          rate: pcm.rate,
        })
        left -= span
        position = 0
        index++
      }
    }
    const ownLengths = dropoutsAcross(ownPieces)
    const ownRuns = ownLengths.length
    // The drop-outs, and where each fell (s from the loaded run's start), beside where the songs changed.
    const unmatched = unmatchedIndices(heardRuns, ownLengths).map((i) => heardAt[i]!)
    const loadedDropouts = unmatched.map((run) => run.ms)
    const dropoutTimes = unmatched.map((run) => run.at / 1000)
    let songChangeAt = -ownLead
    const songChanges = ownPieces.slice(0, -1).map((p) => (songChangeAt += (p.to - p.from) / p.rate))
    const doubleHeard = double.marks.map((at) => {
      const from = recorder.frameAt(at)
      return ms(firstSound(rec, from) - from)
    })
    const gaps = marks.boundary.map((at, i) => {
      // The boundary happened before the title changed (the output notices an end within 250 ms); the
      // seek 2 s before the end is outside this window.
      const end = recorder.frameAt(at) + RATE / 10
      const run = longestSilence(rec, end - 0.9 * RATE, end)
      return ms(run.length) - silences[i].tail - silences[i + 1].head
    })
    const edge = (at: number, kind: 'pause' | 'seek') => {
      // A pause: the first silence of at least 300 ms after the command (the demo music has short
      // silences of its own, some with hard edges, which a shorter run would find). A seek: the first
      // silence of at least 5 ms (so a seek's figure can be one of the music's own gaps), or where the
      // two fades meet when there is none.
      const center = recorder.frameAt(at)
      const windowFrames = RATE / 1000
      let run =
        kind === 'pause'
          ? firstSilence(rec, center - RATE / 10, center + 0.45 * RATE, 0.3 * RATE)
          : firstSilence(rec, center - RATE / 50, center + RATE / 2, RATE / 200)
      if (kind === 'seek' && run.length === 0) {
        // No silence between the old position's fade out and the new one's fade in (they meet): the
        // quietest millisecond in the 300 ms after the command stands for it (the fades' meeting point,
        // far quieter than the music's own dips), with no silence.
        let quietest = center
        for (let i = center; i < center + 0.3 * RATE; i += windowFrames)
          if (rmsDb(rec, i, windowFrames) < rmsDb(rec, quietest, windowFrames)) quietest = i
        run = { start: quietest + windowFrames, length: 0 }
      }
      const before = run.start
      const lastMs = rmsDb(rec, before - windowFrames, windowFrames)
      const steady = rmsDb(rec, before - 60 * windowFrames, 20 * windowFrames)
      // Fade: how long before the silence the level was already 6 dB under the steady level.
      let fade = 0
      while (fade < 50 && rmsDb(rec, before - (fade + 1) * windowFrames, windowFrames) < steady - 6) fade++
      // The steepest fall from one 1 ms window to the next over the 30 ms before the silence: a 12 ms
      // linear fade falls at most about 6 dB a millisecond until its last, the music itself rarely more
      // than 10; a cut falls 30 dB or more at once, even when a faint tail follows it (which the fade
      // count above takes for a fade: a ramp running from an event long past leaves one).
      let stepDb = 0
      for (let i = 30; i > 1; i--) {
        const a = rmsDb(rec, before - i * windowFrames, windowFrames)
        const b = rmsDb(rec, before - (i - 1) * windowFrames, windowFrames)
        stepDb = Math.max(stepDb, a - b)
      }
      const result = { cutDb: lastMs, steadyDb: steady, fadeMs: fade, stepDb, silenceMs: ms(run.length) }
      return kind === 'seek' ? { ...result, heardAfterMs: ms(run.start + run.length - center) } : result
    }
    const pauses = marks.pause.map((at) => edge(at, 'pause'))
    const seeks = marks.seek.map((at) => edge(at, 'seek'))
    // The same seeks found by their sound: where the file's new position (from 30 ms after it, past
    // the fade in) lines up with the recording within 400 ms of the command, less those 30 ms.
    const seekSong = await filePcm(app, songs[songs.length - 1])
    const seeksFound = marks.seek.map((at, i) => {
      const center = recorder.frameAt(at)
      const found = findInRecording(
        rec,
        seekSong,
        SEEK_TARGETS_S[i] + 0.03,
        center - RATE / 50,
        center + 0.4 * RATE,
      )
      return { ms: ms(found.frame - 0.03 * RATE - center), correlation: found.correlation }
    })
    // Loudness of each song as heard: 1 s to 3.5 s after it was asked to play (measured by then).
    const loudness = marks.loud.map((at) => {
      const from = recorder.frameAt(at + 1000)
      const to = recorder.frameAt(at + 3500)
      const meter = createLoudnessMeter(RATE, 2)
      meter.push([rec[0].subarray(from, to), rec[1].subarray(from, to)])
      return meter.result().integrated
    })
    // The same songs over LONG_SECONDS from the moment the clock passed 1 s (gain set from the stored
    // measurement at the start: nothing ramps), against what the applied gain should give there: the
    // file's own loudness over the same stretch of the song + the gain (from the stored measurement).
    const longer = await Promise.all(
      settled.map(async ({ wall, position }, i) => {
        const from = recorder.frameAt(wall)
        const heard = loudnessOf(
          rec.map((c) => c.subarray(from, from + LONG_SECONDS * RATE)),
          RATE,
          0,
          LONG_SECONDS,
        )
        const song = songs[i]
        const key = Object.keys(stored).find((k) => k.endsWith(`:${song.id}`))
        const measured = key ? stored[key] : undefined
        const gainDb = chooseGainDb(measured, DEFAULT_LOUDNESS_TARGET)
        const pcm = await filePcm(app, song)
        const file = loudnessOf(pcm.channels, pcm.rate, position, position + LONG_SECONDS)
        return {
          heard,
          expected: file + gainDb,
          whole: (measured?.integrated ?? Number.NaN) + gainDb,
          gainDb,
        }
      }),
    )
    const spreadOf = (list: number[]) => Math.max(...list) - Math.min(...list)
    // Glitches: chunks the output scheduled after their time (stalls), over the whole run.
    const counts = await app.page
      .getByTestId('player-audio')
      .evaluate((el) => ({ ...(el as HTMLElement).dataset }))
      .catch(() => ({}) as DOMStringMap)
    // Starts a render passed before they reached the graph, scheduled again (silent, a render later).
    const lateStarts = Number(counts.lateStarts ?? '0')
    const underruns = (await app.page.evaluate(`(() => {
      const stats = (window.__benchContexts || []).map((c) => c.playbackStats).filter(Boolean)
      if (!stats.length) return 'n/a (no AudioContext.playbackStats in this browser)'
      let events = 0, duration = 0, total = 0
      for (const s of stats) { events += s.underrunEvents; duration += s.underrunDuration; total += s.totalDuration }
      return events + ' events, ' + (duration * 1000).toFixed(1) + ' ms over ' + total.toFixed(0) + ' s'
    })()`)) as string
    const spread = loudness.length ? Math.max(...loudness) - Math.min(...loudness) : Number.NaN
    console.log(
      `\nnpm run bench:audio${before ? ' -- --before' : ''}${quirks ? ' -- --quirks' : ''}: the app's output, recorded from a null sink${quirks ? ', on a netease-like data source' : ''}\n`,
    )
    console.log(
      `silence added at song boundaries (files' own head/tail subtracted), ms: ${gaps.map((g) => fmt(g)).join(', ')}`,
    )
    console.log(
      `pause: last 1 ms before silence ${pauses.map((p) => fmt(p.cutDb)).join(', ')} dBFS (steady ${pauses.map((p) => fmt(p.steadyDb)).join(', ')}); fade ${pauses.map((p) => p.fadeMs).join(', ')} ms; steepest 1 ms fall ${pauses.map((p) => fmt(p.stepDb, 0)).join(', ')} dB`,
    )
    console.log(
      `seek: last 1 ms before the cut ${seeks.map((p) => fmt(p.cutDb)).join(', ')} dBFS; fade ${seeks.map((p) => p.fadeMs).join(', ')} ms; steepest 1 ms fall ${seeks.map((p) => fmt(p.stepDb, 0)).join(', ')} dB; silence ${seeks.map((p) => fmt(p.silenceMs)).join(', ')} ms; new position heard after the command ${seeks.map((p) => fmt((p as { heardAfterMs: number }).heardAfterMs)).join(', ')} ms`,
      `\n  the new position found by its sound (correlation with the file): ${seeksFound.map((p) => fmt(p.ms)).join(', ')} ms after the command (correlation ${seeksFound.map((p) => fmt(p.correlation, 2)).join(', ')})`,
    )
    console.log(
      `click → first audible sample (the file's own silent head subtracted: ${silences
        .slice(0, clicks.length)
        .map((silence) => fmt(silence.head, 0))
        .join(
          ', ',
        )} ms), ms: median ${fmt(median(clicks))} (${clicks.map((c) => fmt(c, 0)).join(', ')}; first ${fmt(clicks[0], 0)})`,
      `\n  the same clicks on the audio clock (first start(at) via getOutputTimestamp), ms: median ${fmt(median(clockClicks))} (${clockClicks.map((c) => fmt(c, 0)).join(', ')})`,
      `\n  of which the first media range (network stack to main's handler): ${firstRanges.map((m) => fmt(m)).join(', ')} ms`,
    )
    console.log(
      `loudness per song as heard 1-3.5 s after the click, LUFS: ${loudness.map((l) => fmt(l)).join(', ')}; spread ${fmt(spread)} LU`,
    )
    console.log(
      `loudness per song as heard over ${LONG_SECONDS} s once its gain is set, LUFS: ${longer.map((l) => fmt(l.heard)).join(', ')}; spread ${fmt(spreadOf(longer.map((l) => l.heard)))} LU`,
    )
    console.log(
      `  applied gain ${longer.map((l) => fmt(l.gainDb)).join(', ')} dB; heard - (file over the same stretch + gain) ${longer.map((l) => fmt(l.heard - l.expected, 2)).join(', ')} LU; whole song at its gain ${longer.map((l) => fmt(l.whole)).join(', ')} LUFS (spread ${fmt(spreadOf(longer.map((l) => l.whole)))} LU)`,
    )
    console.log(
      `CPU of the browser while playing, % of one core, over 8 s from 3 s after each page opened: now-playing ${fmt(cpuNowPlaying.ours)}, list page ${fmt(cpuList.ours)} (the method before, every chromium+playwright process on the machine: ${fmt(cpuNowPlaying.old)}, ${fmt(cpuList.old)})`,
      `\n  the 2.5 s before, as each page opened: now-playing ${fmt(cpuNowPlayingOpening.ours)}, list page ${fmt(cpuListOpening.ours)}`,
      `\n  media requests meanwhile: now-playing ${cpuNowPlaying.requests} (${fmt(cpuNowPlaying.bytes / 2 ** 20)} MiB), list page ${cpuList.requests} (${fmt(cpuList.bytes / 2 ** 20)} MiB)`,
      `\n  by process: now-playing ${cpuNowPlaying.kinds}; list page ${cpuList.kinds}`,
      `\n  the renderer by thread: now-playing ${cpuNowPlaying.threads}; list page ${cpuList.threads}`,
    )
    const unloadedSeconds = (loadedWindowStart - t0) / 1000
    console.log(
      `glitches (chunks scheduled after their time) over the ${fmt(unloadedSeconds, 0)} s before the loaded run: ${before ? 'n/a (element)' : loadedBefore.late}; starts scheduled again because a render passed them: ${lateStarts}`,
      `\noutput underruns (Chromium's AudioContext.playbackStats) over those ${fmt(unloadedSeconds, 0)} s: ${loadedBefore.events} events, ${fmt(loadedBefore.ms)} ms (whole run with the loaded part: ${underruns})`,
      `\nloaded run, ${LOADED_SECONDS} s on the list page while another process keeps one core busy${stillPlaying ? '' : ' (the player had stopped by its end)'}: silences of 1 ms or more heard ${heardRuns.length}, the files' own over the same stretch ${ownRuns} (drop-outs, the heard runs matching none of the files' own: ${loadedDropouts.length}${loadedDropouts.length ? ` (${loadedDropouts.map((d) => fmt(d)).join(', ')} ms, at ${dropoutTimes.map((t) => fmt(t, 2)).join(', ')} s into it; songs changed at ${songChanges.map((t) => fmt(t, 2)).join(', ') || 'none'} s)` : ''}; heard ${heardRuns.map((d) => fmt(d)).join(', ') || 'none'} ms, the files' ${ownLengths.map((d) => fmt(d)).join(', ') || 'none'} ms); late chunks ${loadedAfter.late - loadedBefore.late}, underruns ${loadedAfter.events - loadedBefore.events} events (${fmt(loadedAfter.ms - loadedBefore.ms)} ms), CPU ${fmt(cpuLoaded.ours)} %`,
    )
    // Where each late chunk fell: how late, how far into its rendering, after which of the run's moments.
    const moments = [
      ...Object.entries(marks).flatMap(([name, list]) =>
        list.map((at, i) => ({ name: `${name} ${i + 1}`, at })),
      ),
      ...double.marks.map((at, i) => ({ name: `double-click ${i + 1}`, at })),
      { name: 'the CPU windows', at: cpuWindowsStart },
      { name: 'the loaded run', at: loadedWindowStart },
    ].sort((a, b) => a.at - b.at)
    const lateWhere = (counts.lateChunks ?? '')
      .split(' ')
      .filter(Boolean)
      .map((item) => {
        const [late, into, wall] = item.split('@').map(Number)
        const after = moments.filter((m) => m.at <= wall).pop()
        return `${fmt(late)} ms late, ${fmt(into)} s into its rendering, ${after ? `${fmt((wall - after.at) / 1000)} s after ${after.name}` : 'before any moment'}`
      })
    console.log(`late chunks: ${lateWhere.length ? lateWhere.join('; ') : 'none'}`)
    console.log(
      `(the wall-clock → recording mapping is the least-delayed parec chunk: latencies include up to its buffering)`,
    )
    await close()
    const floor = await floors()
    const dbl = median(doubleHeard)
    const floorClick = median(floor.heardMs)
    console.log(
      `\nfloors, the same Chromium in a blank page playing a tone through a gain and a compressor, in this run:`,
      `\n  CPU over 8 s ${fmt(floor.cpu.ours)} % (${floor.cpu.kinds}; renderer threads ${floor.cpu.threads})`,
      `\n  a click scheduling a burst at the context's clock, heard after the press: median ${fmt(floorClick)} ms (${floor.heardMs.map((m) => fmt(m)).join(', ')})`,
      `\n  loaded, ${LOADED_SECONDS} s with one core kept busy: drop-outs ${floor.loaded.dropouts.length}${floor.loaded.dropouts.length ? ` (${floor.loaded.dropouts.map((d) => fmt(d)).join(', ')} ms)` : ''}, underruns ${floor.loaded.underruns.events} events (${fmt(floor.loaded.underruns.ms)} ms), CPU ${fmt(floor.loaded.cpu.ours)} %; over its whole life ${floor.underruns.events} underruns`,
    )
    console.log(
      `\nabove the floor: double-click → first audible sample, median ${fmt(dbl)} ms (${doubleHeard.map((c) => fmt(c, 0)).join(', ')}; audio clock ${double.clock.map((c) => fmt(c, 0)).join(', ')}) = floor + ${fmt(dbl - floorClick)} ms; store click median ${fmt(median(clicks))} = floor + ${fmt(median(clicks) - floorClick)} ms`,
      `\n  CPU now-playing ${fmt(cpuNowPlaying.ours)} % = floor + ${fmt(cpuNowPlaying.ours - floor.cpu.ours)} points; list page ${fmt(cpuList.ours)} % = floor + ${fmt(cpuList.ours - floor.cpu.ours)} points`,
    )
  } finally {
    await close()
  }
}

try {
  if (!only || only.includes('main')) await main()
  const sections = SECTIONS.filter((name) => !only || only.includes(name))
  if (sections.length) {
    const figures = await soundSections(sections, {
      root,
      pulseServer: PULSE_SERVER,
      chromiumArgs: EXTRA_CHROMIUM_ARGS,
    })
    console.log(
      `\nnpm run bench:audio -- --only ${sections.join(',')} (load average ${loadavg()
        .map((v) => v.toFixed(1))
        .join(' / ')}):\n`,
    )
    printTable(figures)
  }
} finally {
  for (const child of started.reverse()) child.kill()
  sink.stop()
  await rm(root, { recursive: true, force: true })
}
