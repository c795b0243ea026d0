import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Page } from 'playwright-core'
import type { Song } from '@shared/api/models'
import type { IpcResult } from '@shared/ipc/contract'
import { createCore, createMemoryStore } from '@main/core'
import { startDataSource } from '@server/index'
import { startApp } from '../e2e/harness'
import { findSongs, playable } from '../e2e/playback-support'
import { OWNER_PASSPHRASE } from '../support/phone'
import { createTestCipher } from '../support/test-cipher'
import { waitPlaying, withPlayer } from './playback'
import { hasPulseAudio, startNullSink } from './pulse'
import { median, printTable, round, summarise } from './stats'
import type { Figure } from './stats'

/**
 * The start of a song already on this computer (issue 23), `npx tsx test/bench/offline-start.ts`
 * (needs `npx electron-vite build`; also in `npm run bench` as part of `offline`):
 *
 * - in main alone (the core against the reference server, no Chromium): `player:resolve` of a cached
 *   song, and its first range (the renderer's 64 KB header read) to the last byte;
 * - in Chromium (the end-to-end harness): the Play click to the first sample audible on the audio clock
 *   (the first `AudioBufferSourceNode.start(at)` of the song, `at` mapped to the page's clock with
 *   `getOutputTimestamp()`, which includes the output device's latency), split into where the time goes:
 *   main's own work (resolve and media answers, timed around the core's handlers), the page's work up to
 *   scheduling, and the output (the start lead and the device latency). The page is reloaded after the
 *   songs are cached, so each start resolves over IPC as a song played a while ago does.
 */

const RUNS = 11

/** Main's share without a browser: resolve and the first range of a cached song, repeated. */
export async function mainStart(): Promise<Figure[]> {
  const dataDir = await mkdtemp(join(tmpdir(), 'cadence-bench-start-src-'))
  const mediaDir = await mkdtemp(join(tmpdir(), 'cadence-bench-start-media-'))
  const server = await startDataSource({ ownerPassphrase: OWNER_PASSPHRASE, dataDir, port: 0, demo: 40 })
  const store = createMemoryStore()
  const open = () =>
    createCore({
      builtinSourceUrl: server.url,
      builtinPassphrase: OWNER_PASSPHRASE,
      store,
      cipher: createTestCipher(),
      isTrustedSender: () => true,
      appInfo: { name: 'Cadence', version: '0.0.0-bench', platform: 'linux' },
      mediaDir,
    })
  let core = open()
  const sender = { senderUrl: 'app://cadence/index.html' }
  try {
    await core.start()
    const resolve = async (id: number) => {
      const answer = (await core.router.invoke(
        'player:resolve',
        { id, br: 320000 },
        sender,
      )) as IpcResult<Song>
      if (!answer.ok) throw new Error(answer.error.message)
      return answer.value
    }
    const firstRange = async (url: string) => {
      const answer = await core.media(new Request(url, { headers: { Range: 'bytes=0-65535' } }))
      await answer.arrayBuffer()
    }
    /** Resolve, then the first range: the time of each. */
    const start = async (id: number) => {
      let started = performance.now()
      const song = await resolve(id)
      const resolved = performance.now() - started
      started = performance.now()
      await firstRange(song.meta!.url!)
      return [resolved, performance.now() - started] as const
    }
    // Songs never played: resolve, then the first range (main copies the song as it answers).
    const ids: number[] = []
    const firstPlays: number[] = []
    for (let id = 1; ids.length < 5 && id <= 40; id++) {
      const url = (await resolve(id)).meta?.url
      if (!url) continue
      ids.push(id)
      const started = performance.now()
      await firstRange(url)
      firstPlays.push(performance.now() - started)
    }
    const cached = () =>
      ids.every((id) => [...core.offline.cache.entries()].some((e) => e.songId === String(id)))
    for (let waited = 0; !cached(); waited += 20) {
      if (waited > 20_000) throw new Error('the songs did not reach the cache')
      await new Promise((r) => setTimeout(r, 20))
    }
    // Their details and lyrics are kept a moment after the audio.
    await new Promise((r) => setTimeout(r, 300))
    const resolves: number[] = []
    const ranges: number[] = []
    for (let run = 0; run < 40; run++) {
      const [resolved, range] = await start(ids[run % ids.length]!)
      resolves.push(resolved)
      ranges.push(range)
    }
    // The app starts again: the first read of each file checks its md5 (a damaged file is never served).
    await core.offline.cache.flush()
    core.dispose()
    core = open()
    await core.start()
    const afterRestart: number[] = []
    for (const id of ids) afterRestart.push((await start(id)).reduce((a, b) => a + b))
    const sizes = [...core.offline.cache.entries()].map((e) => e.size)
    return [
      summarise('song never played: first 64 KB range in main, to its last byte', firstPlays, 'ms'),
      summarise('cached song: player:resolve in main (from disk)', resolves.slice(5), 'ms'),
      summarise('cached song: first 64 KB range in main, to its last byte', ranges.slice(5), 'ms'),
      {
        ...summarise(
          'cached song, first start after an app start: resolve + first range',
          afterRestart,
          'ms',
        ),
        note: `md5 of the whole file checked on its first read; files of ${round(median(sizes) / 2 ** 20, 1)} MiB`,
      },
    ]
  } finally {
    core.dispose()
    await server.close()
    await rm(dataDir, { recursive: true, force: true })
    await rm(mediaDir, { recursive: true, force: true })
  }
}

interface Start {
  /** Click → the first sample audible (audio clock, output latency included). */
  audible: number
  /** Click → the output's `playing` event (the first chunk is scheduled). */
  playing: number
  /** Click → the first chunk's `start(at)` call. */
  scheduled: number
  /** What the output adds after scheduling: the lead before `at`, and the device's latency. */
  lead: number
  device: number
  /** Main's own time in the core's handlers for this start (resolve and media answers). */
  main: number
  /** The page waiting on media fetches before scheduling (main's answer and the transport). */
  fetching: number
}

/** Installs the audio-clock probe: every `AudioBufferSourceNode.start(at)` with its context. */
const PROBE = `(() => {
  const starts = []
  window.__starts = starts
  const start = AudioBufferSourceNode.prototype.start
  AudioBufferSourceNode.prototype.start = function (...args) {
    starts.push({ at: args[0] ?? 0, called: performance.now(), context: this.context })
    return start.apply(this, args)
  }
  // The media scheme's fetches as the page waits on them (the harness's transport included).
  const fetches = []
  window.__fetches = fetches
  const fetch = window.fetch
  window.fetch = async (...args) => {
    const started = performance.now()
    const answer = await fetch(...args)
    if (String(args[0]).startsWith('cadence-media:')) fetches.push([started, performance.now()])
    return answer
  }
})()`

/** Clicks Play and answers the page's times (a string, so tsx's helpers stay out of the page). */
const CLICK = `new Promise((resolve, reject) => {
  const audio = document.querySelector('[data-testid="player-audio"]')
  const button = document.querySelector('[data-testid="player-toggle"]')
  if (!audio || !button) return reject(new Error('no audio element or no Play'))
  const timer = setTimeout(() => reject(new Error('nothing played within 10 s')), 10000)
  window.__starts.length = 0
  window.__fetches.length = 0
  const clicked = performance.now()
  audio.addEventListener('playing', () => {
    clearTimeout(timer)
    const playing = performance.now()
    const first = window.__starts[0]
    if (!first) return reject(new Error('no chunk was scheduled'))
    const context = first.context
    const stamp = context.getOutputTimestamp()
    const audible = stamp.performanceTime + (first.at - stamp.contextTime) * 1000
    const fetching = window.__fetches
      .filter(([started]) => started >= clicked && started <= first.called)
      .reduce((sum, [started, ended]) => sum + Math.min(ended, first.called) - started, 0)
    resolve({
      clickedAt: performance.timeOrigin + clicked,
      fetching,
      audible: audible - clicked,
      playing: playing - clicked,
      scheduled: first.called - clicked,
      device: (context.outputLatency + context.baseLatency) * 1000,
    })
  }, { once: true })
  button.click()
})`

async function clickToAudible(page: Page, song: Song, mainSpans: Array<[number, number]>) {
  await withPlayer(page, 'queue-one', [song])
  mainSpans.length = 0
  const t = (await page.evaluate(CLICK)) as Omit<Start, 'lead' | 'main'> & { clickedAt: number }
  const until = t.clickedAt + t.playing
  const main = mainSpans
    .filter(([start]) => start >= t.clickedAt && start <= until)
    .reduce((sum, [start, end]) => sum + (end - start), 0)
  return { ...t, lead: t.audible - t.scheduled - t.device, main } satisfies Start
}

/** Click → audible for cached songs and for songs never played, in Chromium, with the breakdown. */
export async function browserStart(): Promise<Figure[]> {
  // The output as on a Linux desktop: a PulseAudio sink (a private null sink, as `bench:audio` plays
  // into) where the machine has PulseAudio; else Chromium's fake output (no sound server: 441-frame
  // callbacks and 32 ms reported whatever the sink), which the device figure's note then says.
  const pulseRoot = hasPulseAudio() ? await mkdtemp(join(tmpdir(), 'cadence-bench-start-pulse-')) : undefined
  const sink = pulseRoot ? await startNullSink(pulseRoot) : undefined
  const app = await startApp(sink ? { audible: true, chromiumEnv: { PULSE_SERVER: sink.server } } : {})
  const epoch = () => performance.timeOrigin + performance.now()
  /** [start, end] of every call into the core's player and media handlers (epoch ms). */
  const mainSpans: Array<[number, number]> = []
  const media = app.core.media
  ;(app.core as { media: typeof media }).media = async (request) => {
    const start = epoch()
    const answer = await media(request)
    // The harness reads the whole body (Electron streams it): time main's bytes, not the transport.
    const body = await answer.arrayBuffer()
    mainSpans.push([start, epoch()])
    return new Response(body, { status: answer.status, headers: answer.headers })
  }
  const invoke = app.core.router.invoke.bind(app.core.router)
  ;(app.core.router as { invoke: typeof invoke }).invoke = (async (...args: Parameters<typeof invoke>) => {
    const start = epoch()
    const answer = await invoke(...args)
    if (args[0] === 'player:resolve') mainSpans.push([start, epoch()])
    return answer
  }) as typeof invoke
  try {
    const { page } = app
    await page.getByTestId('now-playing').waitFor()
    const songs = await findSongs(app, 2 * RUNS + 2, playable)
    const cached = songs.slice(2, 2 + RUNS)
    const fresh = songs.slice(2 + RUNS)
    const inCache = (song: Song) =>
      [...app.core.offline.cache.entries()].some((e) => e.songId === String(song.id))
    for (const song of cached) {
      await withPlayer(page, 'play-all', [song])
      await waitPlaying(page)
      for (let waited = 0; !inCache(song); waited += 20) {
        if (waited > 20_000) throw new Error(`song ${song.id} did not reach the cache`)
        await new Promise((r) => setTimeout(r, 20))
      }
    }
    // A fresh page: nothing resolved, as when a song played a while ago is started again.
    await page.reload()
    await page.getByTestId('now-playing').waitFor()
    await page.evaluate(PROBE)
    await withPlayer(page, 'play-all', songs.slice(0, 2)) // creates the AudioContext, warms the paths
    await waitPlaying(page)
    const fromCache: Start[] = []
    const fromNetwork: Start[] = []
    // Cached songs first: a song never played goes on being copied after the next one starts, which
    // (with the reference server making its audio) would weigh on the cached starts that follow.
    for (const song of cached) fromCache.push(await clickToAudible(page, song, mainSpans))
    for (const song of fresh) fromNetwork.push(await clickToAudible(page, song, mainSpans))
    const pick = (runs: Start[], key: keyof Start) => runs.map((r) => r[key])
    const part = (figure: string, key: keyof Start) => summarise(figure, pick(fromCache, key), 'ms')
    const scheduled = pick(fromCache, 'scheduled')
    const main = pick(fromCache, 'main')
    const fetching = pick(fromCache, 'fetching')
    return [
      {
        ...summarise('cached song: click to audible (audio clock)', pick(fromCache, 'audible'), 'ms', '≤ 30'),
        note: 'first sample on the output: scheduling + start lead + device latency',
      },
      part('cached song: click to the first chunk scheduled', 'scheduled'),
      part('  of which main (resolve + media answers)', 'main'),
      part('  of which the page waiting on media fetches (main + harness transport)', 'fetching'),
      {
        figure: '  of which the rest: the page’s own work and the resolve’s IPC',
        value: round(median(scheduled.map((s, i) => s - Math.max(fetching[i]!, main[i]!)))),
        unit: 'ms',
      },
      part('  then the output: start lead', 'lead'),
      {
        ...part('  then the output: device latency (output + base)', 'device'),
        note: sink ? 'a PulseAudio null sink' : 'no PulseAudio here: Chromium’s fake output',
      },
      part('cached song: click to playing (event)', 'playing'),
      summarise('song never played: click to audible (same runs)', pick(fromNetwork, 'audible'), 'ms'),
    ]
  } finally {
    await app.close()
    sink?.stop()
    if (pulseRoot) await rm(pulseRoot, { recursive: true, force: true })
  }
}

export async function benchOfflineStart(): Promise<Figure[]> {
  return [...(await mainStart()), ...(await browserStart())]
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  printTable(await benchOfflineStart())
}
