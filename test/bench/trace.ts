import { pathToFileURL } from 'node:url'
import { chromium } from 'playwright-core'
import type { Page } from 'playwright-core'
import { CHROMIUM_FLAGS, findChromium, startApp } from '../e2e/harness'
import type { App } from '../e2e/harness'
import { findSongs, playSongs, playable, waitForClock } from '../e2e/playback-support'
import { countCpu, formatCpu, playFloorTone } from './cpu'
import { median } from './stats'
import type { CpuSeconds } from './cpu'
import type { TraceEvent } from './ui'

/**
 * `npx tsx test/bench/trace.ts`: where the CPU goes while a song plays, attributed. A Chromium trace
 * (CDP `Tracing`, every process) of `SECONDS` on the now-playing screen and then on a playlist page, each
 * from 3 s after it opened, split by what ran: each event's self time (its duration less its children's)
 * is put in one part by its name, and whole threads that only do one thing (the compositor's, the raster
 * workers', the GPU process's, the audio threads) by the thread, on the thread's CPU clock (`tdur`) where
 * the event has one. Before each trace, the same stretch untraced is counted in CPU-seconds per process
 * (`cpu.ts`), with the media requests made meanwhile. Last, the floor: a blank page of the same Chromium
 * (same flags) playing a looped tone through a gain and a compressor, counted and traced the same way.
 * Prints per page the CPU-seconds, the split (ms per second of trace), the counts a second and the events
 * that cost most, to find what to remove. Runs in the end-to-end harness (muted). `TRACE_ROUNDS=3` does
 * it all three times over and adds each round's CPU and the medians.
 */

const SECONDS = Number(process.env.TRACE_SECONDS ?? 10)
/** `TRACE_ROUNDS=n`: the app's two pages and the floor measured n times over (fresh browsers each time). */
const ROUNDS = Math.max(1, Math.floor(Number(process.env.TRACE_ROUNDS ?? 1)) || 1)
const CATEGORIES = [
  'toplevel',
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'blink',
  'cc',
  'gpu',
  'viz',
  'v8',
  'disabled-by-default-v8.gc',
  'audio',
  'webaudio',
  'media',
].join(',')

export const PARTS = [
  'script',
  'style',
  'layout',
  'paint',
  'raster/compositing',
  'GC',
  'audio',
  'other',
] as const
export type Part = (typeof PARTS)[number]

/** The part an event's self time belongs to, by the event's name (main-thread work). */
export function partOfEvent(name: string): Part {
  if (/GC|Sweep|Mark|Scavenge|Compact|BlinkGC|CppGC|ThreadState|LiveObjectVisitor|Heap/.test(name))
    return 'GC'
  if (
    /^(FunctionCall|EvaluateScript|TimerFire|FireAnimationFrame|EventDispatch|RunMicrotasks|FireIdleCallback|v8\.|V8\.|ScriptCompiler|AsyncTask|BlinkScheduler_PerformMicrotaskCheckpoint|HTMLDocumentParser|XHR|ResourceReceivedData)/.test(
      name,
    )
  )
    return 'script'
  if (
    /^(UpdateLayoutTree|RecalculateStyles|ParseAuthorStyleSheet|Document::updateStyle|StyleRecalc|Style)/.test(
      name,
    )
  )
    return 'style'
  if (
    /^(Layout|UpdateLayout|LocalFrameView::performLayout|LocalFrameView::layout|HitTest|IntersectionObserver)/.test(
      name,
    )
  )
    return 'layout'
  if (
    /^(Paint|PrePaint|UpdateLayer|Layerize|PaintImage|Decode|ImageDecode|PaintArtifactCompositor|LocalFrameView::RunPaint|LocalFrameView::RunPrePaint)/.test(
      name,
    )
  )
    return 'paint'
  if (
    /^(Commit|CompositeLayers|ProxyMain|LayerTreeHost|cc::|Raster|Draw|BeginMainFrame|Scheduler::|ProxyImpl)/.test(
      name,
    )
  )
    return 'raster/compositing'
  if (/[Aa]udio/.test(name)) return 'audio'
  return 'other'
}

/** A whole thread's part, by its name; undefined for a thread whose events are split one by one. */
export function partOfThread(thread: string): Part | undefined {
  if (/[Aa]udio/.test(thread)) return 'audio'
  if (
    /^(Compositor|CompositorTileWorker|VizCompositorThread|CrGpuMain|GpuMemory|Chrome_InProcGpuThread)/.test(
      thread,
    )
  )
    return 'raster/compositing'
  return undefined
}

export interface Split {
  /** ms per second of trace, by part. */
  parts: Record<Part, number>
  /** The same by thread name (all parts). */
  threads: Array<[string, number]>
  /** The costliest event names on the renderer's main thread (self ms per second). */
  top: Array<[string, number]>
  /**
   * Per second: main-thread frames (`ProxyMain::BeginMainFrame`), paints, layouts, style recalcs
   * (`UpdateLayoutTree`), raster tasks, frames drawn by the display compositor, GC events, and timers fired.
   */
  counts: Record<Count, number>
}

const COUNTS = ['frames', 'paints', 'layouts', 'styles', 'rasterTasks', 'draws', 'gcs', 'timers'] as const
type Count = (typeof COUNTS)[number]

/** Splits a trace's events into the parts, per second of `seconds`. */
export function splitTrace(events: TraceEvent[], seconds: number): Split {
  const names = new Map<string, string>()
  for (const e of events)
    if (e.ph === 'M' && e.name === 'thread_name')
      names.set(`${e.pid}:${e.tid}`, String((e.args as unknown as { name?: string } | undefined)?.name ?? ''))
  const byThread = new Map<string, TraceEvent[]>()
  for (const e of events) {
    if (e.ph !== 'X' || e.dur === undefined) continue
    const key = `${e.pid}:${e.tid}`
    byThread.set(key, [...(byThread.get(key) ?? []), e])
  }
  const parts = Object.fromEntries(PARTS.map((p) => [p, 0])) as Record<Part, number>
  const threads = new Map<string, number>()
  const top = new Map<string, number>()
  const counts = Object.fromEntries(COUNTS.map((c) => [c, 0])) as Record<Count, number>
  for (const [key, list] of byThread) {
    const thread = names.get(key) ?? 'unnamed'
    list.sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0))
    // Self time: each event's duration less the durations of the events directly inside it.
    // On the thread's CPU clock where the event has one (time the thread ran), else wall time.
    const cost = (e: TraceEvent) => e.tdur ?? e.dur ?? 0
    const stack: Array<{ end: number; event: TraceEvent; self: number }> = []
    const selves: Array<{ event: TraceEvent; self: number }> = []
    const close = (until: number) => {
      while (stack.length && stack.at(-1)!.end <= until) selves.push(stack.pop()!)
    }
    for (const e of list) {
      close(e.ts)
      const dur = e.dur ?? 0
      if (stack.length) stack.at(-1)!.self -= Math.min(cost(e), stack.at(-1)!.self)
      stack.push({ end: e.ts + dur, event: e, self: cost(e) })
    }
    close(Number.POSITIVE_INFINITY)
    const whole = partOfThread(thread)
    for (const e of list) {
      if (thread === 'CrRendererMain' && e.name === 'ProxyMain::BeginMainFrame') counts.frames++
      if (thread === 'CrRendererMain' && e.name === 'Paint') counts.paints++
      if (thread === 'CrRendererMain' && e.name === 'Layout') counts.layouts++
      if (thread === 'CrRendererMain' && e.name === 'UpdateLayoutTree') counts.styles++
      if (thread === 'CrRendererMain' && e.name === 'TimerFire') counts.timers++
      if (
        thread === 'CrRendererMain' &&
        /^(MajorGC|MinorGC|V8\.GC_SCAVENGER|V8\.GC_MARK_COMPACTOR)$/.test(e.name)
      )
        counts.gcs++
      if (e.name === 'RasterTask') counts.rasterTasks++
      if (thread === 'VizCompositorThread' && /DrawAndSwap$/.test(e.name)) counts.draws++
    }
    for (const { event, self } of selves) {
      if (self <= 0) continue
      const ms = self / 1000 / seconds
      // The task runner's own slice of a task is nobody's work: left out unless the thread is one part.
      if (!whole && /^(RunTask|ThreadControllerImpl::RunTask|ThreadPool_RunTask)$/.test(event.name)) continue
      const part = whole ?? partOfEvent(event.name)
      parts[part] += ms
      threads.set(thread, (threads.get(thread) ?? 0) + ms)
      if (thread === 'CrRendererMain') top.set(event.name, (top.get(event.name) ?? 0) + ms)
    }
  }
  return {
    parts,
    threads: [...threads].sort((a, b) => b[1] - a[1]).slice(0, 10),
    top: [...top].sort((a, b) => b[1] - a[1]).slice(0, 12),
    counts: Object.fromEntries(COUNTS.map((c) => [c, counts[c] / seconds])) as Record<Count, number>,
  }
}

const f = (n: number) => n.toFixed(2)

export function printSplit(label: string, split: Split): void {
  console.log(
    `${label}: ${PARTS.map((p) => `${p} ${f(split.parts[p])}`).join(', ')} ms/s (event self time, thread CPU clock)`,
    `\n  per second: ${Object.entries(split.counts)
      .map(([name, n]) => `${name} ${n.toFixed(1)}`)
      .join(', ')}`,
  )
  console.log(`  by thread: ${split.threads.map(([t, ms]) => `${t} ${f(ms)}`).join(', ')}`)
  console.log(
    `  costliest on the renderer's main thread: ${split.top.map(([n, ms]) => `${n} ${f(ms)}`).join(', ')}`,
  )
}

/** Traces `seconds` of `page` as it is. */
async function tracePage(page: Page, seconds = SECONDS): Promise<Split> {
  const cdp = await page.context().newCDPSession(page)
  const events: TraceEvent[] = []
  cdp.on('Tracing.dataCollected', ({ value }) => events.push(...(value as unknown as TraceEvent[])))
  const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve))
  await cdp.send('Tracing.start', { categories: CATEGORIES, transferMode: 'ReportEvents' })
  await new Promise((done) => setTimeout(done, seconds * 1000))
  await cdp.send('Tracing.end')
  await complete
  await cdp.detach()
  return splitTrace(events, seconds)
}

/** One page's figures: CPU-seconds over `SECONDS` untraced (and the media asked meanwhile), then a trace. */
export interface PageFigures {
  cpu: CpuSeconds
  media: { requests: number; bytes: number }
  split: Split
}

/** Bytes served of a media answer, from its `Content-Range` (`bytes a-b/n`). */
const servedBytes = (contentRange?: string) => {
  const match = /bytes (\d+)-(\d+)/.exec(contentRange ?? '')
  return match ? Number(match[2]) - Number(match[1]) + 1 : 0
}

async function measure(page: Page, app?: App): Promise<PageFigures> {
  const from = app?.mediaRequests.length ?? 0
  const counting = await countCpu()
  await new Promise((done) => setTimeout(done, SECONDS * 1000))
  const cpu = await counting.stop()
  const asked = app?.mediaRequests.slice(from) ?? []
  const media = { requests: asked.length, bytes: asked.reduce((n, r) => n + servedBytes(r.contentRange), 0) }
  return { cpu, media, split: await tracePage(page) }
}

async function openFirstPlaylist(page: Page) {
  await page.getByTestId('nav-home').click()
  await page.getByTestId('playlist-card').first().click()
  await page.getByTestId('song-row').first().waitFor()
}

export async function traceWhilePlaying(): Promise<{ nowPlaying: PageFigures; list: PageFigures }> {
  const app = await startApp()
  try {
    await app.page.getByTestId('now-playing').waitFor()
    const songs = await findSongs(app, 4, (song) => playable(song) && (song.duration ?? 0) > 30_000)
    await playSongs(app.page, songs)
    await waitForClock(app.page, 0.3, 30_000)
    await app.page.getByTestId('player-cover').click()
    await new Promise((done) => setTimeout(done, 3000))
    const nowPlaying = await measure(app.page, app)
    await app.page.keyboard.press('Escape')
    await openFirstPlaylist(app.page)
    await new Promise((done) => setTimeout(done, 3000))
    const list = await measure(app.page, app)
    return { nowPlaying, list }
  } finally {
    await app.close()
  }
}

/**
 * The floor: the same Chromium (the harness's flags, muted as it is) with a blank page playing a looped
 * 440 Hz tone through a gain and a `DynamicsCompressorNode` at `latencyHint: 'interactive'`, from 3 s
 * after it starts: what Chromium's audio path costs here before any of the app's work.
 */
export async function floorFigures(): Promise<PageFigures> {
  const browser = await chromium.launch({
    executablePath: findChromium(),
    args: CHROMIUM_FLAGS,
    headless: true,
  })
  try {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage()
    await page.setContent('<p>floor</p>')
    await playFloorTone(page)
    // Longer than the app's 3 s: a browser just started still settles for some seconds.
    await new Promise((done) => setTimeout(done, 8000))
    return await measure(page)
  } finally {
    await browser.close()
  }
}

export function printFigures(label: string, figures: PageFigures): void {
  console.log(`${label}\n  CPU: ${formatCpu(figures.cpu)}`)
  console.log(`  media while counted: ${figures.media.requests} requests, ${figures.media.bytes} bytes`)
  printSplit('  trace', figures.split)
}

/** % of a core: all of Chromium's processes, and the renderer's main and audio threads. */
function percents(page: PageFigures) {
  const of = (s = 0) => (s / page.cpu.seconds) * 100
  return {
    all: of(page.cpu.chromium),
    main: of(page.cpu.threads.chromium),
    audio: of(page.cpu.threads.AudioOutputDevi),
  }
}

/**
 * Each round's figures and their medians: one round's CPU swings by more than the targets here (the audio
 * thread and the audio service, the floor's as much as the app's), so a claim rests on the median.
 */
function printRounds(rounds: Array<{ nowPlaying: PageFigures; list: PageFigures; floor: PageFigures }>) {
  const rows = rounds.map(({ nowPlaying, list, floor }) => ({
    nowPlaying: percents(nowPlaying),
    list: percents(list),
    floor: percents(floor),
  }))
  const f = (n: number) => n.toFixed(2)
  const page = (p: ReturnType<typeof percents>, floor: ReturnType<typeof percents>) =>
    `${f(p.all)} % (+${f(p.all - floor.all)}; main ${f(p.main)}, audio thread ${f(p.audio)})`
  console.log(`\n${rows.length} rounds, % of a core over ${SECONDS} s untraced each:`)
  rows.forEach((row, i) =>
    console.log(
      `  round ${i + 1}: now-playing ${page(row.nowPlaying, row.floor)}; playlist page ${page(row.list, row.floor)}; floor ${f(row.floor.all)} % (audio thread ${f(row.floor.audio)})`,
    ),
  )
  const above = (key: 'nowPlaying' | 'list') => median(rows.map((row) => row[key].all - row.floor.all))
  console.log(
    `  medians: above the floor now-playing +${f(above('nowPlaying'))} points, playlist page +${f(above('list'))} points; floor ${f(median(rows.map((r) => r.floor.all)))} %; renderer main thread ${f(median(rows.map((r) => r.nowPlaying.main)))} / ${f(median(rows.map((r) => r.list.main)))} %`,
  )
}

/**
 * `TRACE_VARIANTS='["", "css…"]'`: the now-playing screen traced once per style sheet added to the page
 * (each in turn, the one before removed), in one app: what a CSS change would save, before building it.
 */
async function traceVariants(variants: string[]): Promise<void> {
  const app = await startApp()
  try {
    await app.page.getByTestId('now-playing').waitFor()
    const songs = await findSongs(app, 12, (song) => playable(song) && (song.duration ?? 0) > 30_000)
    await playSongs(app.page, songs)
    await waitForClock(app.page, 0.3, 30_000)
    await app.page.getByTestId('player-cover').click()
    for (const css of variants) {
      await app.page.evaluate((text) => {
        document.querySelector('#trace-variant')?.remove()
        const style = document.createElement('style')
        style.id = 'trace-variant'
        style.textContent = text
        document.head.append(style)
      }, css)
      await new Promise((done) => setTimeout(done, 2000))
      printFigures(`now-playing with ${JSON.stringify(css)}`, await measure(app.page, app))
    }
  } finally {
    await app.close()
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href && process.env.TRACE_VARIANTS) {
  await traceVariants(JSON.parse(process.env.TRACE_VARIANTS) as string[])
} else if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { loadavg } = await import('node:os')
  const load = loadavg()
  const rounds: Array<{ nowPlaying: PageFigures; list: PageFigures; floor: PageFigures }> = []
  for (let round = 0; round < ROUNDS; round++) {
    const { nowPlaying, list } = await traceWhilePlaying()
    rounds.push({ nowPlaying, list, floor: await floorFigures() })
  }
  const { nowPlaying, list, floor } = rounds[0]!
  console.log(
    `npx tsx test/bench/trace.ts: ${SECONDS} s counted, then ${SECONDS} s traced, on each page while a song plays; load average ${load.map((n) => n.toFixed(1)).join(' ')} at the start, ${loadavg()
      .map((n) => n.toFixed(1))
      .join(' ')} at the end\n`,
  )
  printFigures('now-playing screen', nowPlaying)
  printFigures('playlist page', list)
  printFigures('floor (blank page, a tone through a gain and a compressor)', floor)
  const above = (page: PageFigures) =>
    ((page.cpu.chromium / page.cpu.seconds - floor.cpu.chromium / floor.cpu.seconds) * 100).toFixed(2)
  console.log(
    `\nabove the floor (Chromium's processes, % of a core): now-playing +${above(nowPlaying)} points, playlist page +${above(list)} points`,
  )
  if (rounds.length > 1) printRounds(rounds)
}
