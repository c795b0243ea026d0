import { pathToFileURL } from 'node:url'
import { startApp } from '../e2e/harness'
import type { App } from '../e2e/harness'
import type { Page } from 'playwright-core'
import { median, printTable, round, summarise } from './stats'
import type { Figure } from './stats'

/**
 * Renderer figures in Chromium against the reference server: a 10,000-song playlist opened from the
 * Library and scrolled to the end, and search from the last keystroke to painted results.
 *
 * The playlist is the demo's "The Big Archive" (the owner's 10,000-song playlist); with `--liked` it is
 * the owner's liked songs after liking all 10,000 songs of the demo catalogue (slow to set up).
 */

export const SONGS = 10_000
const RUNS = 5
const SCROLLS = 3
export const BIG_PLAYLIST = 'The Big Archive'

async function likeEverything(app: App): Promise<void> {
  const sender = { senderUrl: `${app.appUrl}/index.html` }
  const ids = Array.from({ length: SONGS }, (_, i) => i + 1)
  for (let i = 0; i < ids.length; i += 100) {
    await Promise.all(
      ids.slice(i, i + 100).map((id) => app.core.router.invoke('catalog:like', { id, like: true }, sender)),
    )
  }
}

/**
 * Times the core's side of every call the renderer makes (data source + validation, in this process),
 * and counts the calls in flight, so a figure can be split into core time and bridge + render time.
 */
function watchCore(app: App) {
  const router = app.core.router
  const invoke = router.invoke.bind(router)
  const times = new Map<string, number[]>()
  let inFlight = 0
  router.invoke = (async (channel: string, args: unknown, sender: { senderUrl: string }) => {
    const t0 = performance.now()
    inFlight++
    try {
      return await invoke(channel, args, sender)
    } finally {
      inFlight--
      times.set(channel, [...(times.get(channel) ?? []), performance.now() - t0])
    }
  }) as typeof router.invoke
  return {
    /** The durations of `channel` calls since the last take. */
    take(channel: string): number[] {
      const list = times.get(channel) ?? []
      times.delete(channel)
      return list
    },
    /** Waits until no call is in flight and the page has painted a run of short frames. */
    async settle(): Promise<void> {
      while (inFlight > 0) await new Promise((r) => setTimeout(r, 20))
      await app.page.evaluate(async () => {
        let quiet = 0
        let last = performance.now()
        const deadline = last + 10_000
        while (quiet < 10 && performance.now() < deadline) {
          await new Promise((r) => requestAnimationFrame(r))
          const now = performance.now()
          quiet = now - last < 40 ? quiet + 1 : 0
          last = now
        }
      })
    },
  }
}

/** Clicks the playlist's card in the Library and waits for the first rows to be painted. */
export async function openPlaylist(
  app: App,
  liked: boolean,
  name = BIG_PLAYLIST,
): Promise<{ ms: number; rows: number; total: number }> {
  await app.page.getByTestId('nav-library').click()
  const card = liked
    ? app.page.locator('[data-testid="playlist-card"][data-liked]').first()
    : app.page.getByTestId('playlist-card').filter({ hasText: name }).first()
  await card.waitFor()
  return app.page.evaluate(
    async ([liked, name]) => {
      const card = [...document.querySelectorAll<HTMLElement>('[data-testid="playlist-card"]')].find((c) =>
        liked ? c.hasAttribute('data-liked') : c.textContent?.includes(name),
      )!
      const t0 = performance.now()
      card.click()
      await new Promise<void>((resolve) => {
        const check = () =>
          document.querySelector('.playlist-view [data-testid="song-row"]')
            ? requestAnimationFrame(() => resolve())
            : requestAnimationFrame(check)
        check()
      })
      return {
        ms: performance.now() - t0,
        rows: document.querySelectorAll('[data-testid="song-row"]').length,
        total: Number(document.querySelector('[role="grid"]')?.getAttribute('aria-rowcount') ?? 0),
      }
    },
    [liked, name] as const,
  )
}

export interface Scroll {
  longest: number
  top: number[]
  over50: number
  frames: number
  median: number
  maxRows: number
}

/** Scrolls the main area to the end, ~1,500 px a frame, and reports the frame times and row count. */
export async function scrollToEnd(app: App): Promise<Scroll> {
  return scrollPageToEnd(app.page)
}

/** The same on any page whose scroller is `.app-main` (the app, or the plain list below). */
async function scrollPageToEnd(page: Page): Promise<Scroll> {
  return page.evaluate(async () => {
    const main = document.querySelector<HTMLElement>('.app-main')!
    main.scrollTop = 0
    await new Promise((r) => requestAnimationFrame(r))
    await new Promise((r) => requestAnimationFrame(r))
    const deltas: number[] = []
    let maxRows = 0
    let last = performance.now()
    while (main.scrollTop + main.clientHeight < main.scrollHeight - 1) {
      main.scrollTop += 1500
      await new Promise((r) => requestAnimationFrame(r))
      const now = performance.now()
      deltas.push(now - last)
      last = now
      maxRows = Math.max(maxRows, document.querySelectorAll('[data-testid="song-row"]').length)
    }
    const sorted = [...deltas].sort((a, b) => b - a)
    return {
      longest: sorted[0],
      top: sorted.slice(0, 5),
      over50: deltas.filter((d) => d > 50).length,
      frames: deltas.length,
      median: sorted[sorted.length >> 1],
      maxRows,
    }
  })
}

/** One event of a Chromium trace (the fields the bench reads). */
export interface TraceEvent {
  name: string
  ph: string
  ts: number
  dur?: number
  tdur?: number
  pid: number
  tid: number
  args?: { data?: { functionName?: string; url?: string } }
}

/** Runs `work` under a Chromium trace of `categories` and returns its result and the trace's events. */
export async function traceDuring<T>(
  app: App,
  categories: string,
  work: () => Promise<T>,
): Promise<{ result: T; events: TraceEvent[] }> {
  const cdp = await app.page.context().newCDPSession(app.page)
  const events: TraceEvent[] = []
  cdp.on('Tracing.dataCollected', ({ value }) => events.push(...(value as unknown as TraceEvent[])))
  const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve))
  await cdp.send('Tracing.start', { categories, transferMode: 'ReportEvents' })
  const result = await work()
  await cdp.send('Tracing.end')
  await complete
  await cdp.detach()
  return { result, events }
}

/**
 * One more scroll to the end under a Chromium trace: the main thread's CPU time per task, which a
 * loaded machine does not inflate (a frame's wall time also counts the time the thread waited for a
 * core). Tracing slows the page a little, so its wall times are not reported.
 */
async function scrollCpu(app: App): Promise<{ longest: number; over50: number; tasks: number }> {
  const { events } = await traceDuring(app, 'toplevel,disabled-by-default-devtools.timeline', () =>
    scrollToEnd(app),
  )
  const tasks = events
    .filter((e) => e.ph === 'X' && e.name === 'RunTask' && e.tdur !== undefined)
    .map((e) => e.tdur! / 1000)
  if (!tasks.length) throw new Error('the trace has no RunTask events')
  return { longest: Math.max(...tasks), over50: tasks.filter((ms) => ms > 50).length, tasks: tasks.length }
}

/**
 * The floor under the scroll figures: a plain list of the same number of rows (all in the DOM, each a
 * grid of the row's six cells with the demo's kind of text, no virtualiser, no framework), in a new page
 * of the same browser, scrolled the same way in the same run.
 */
async function plainListScrolls(app: App, rows: number, runs: number): Promise<Scroll[]> {
  const page = await app.context.newPage()
  try {
    await page.setContent(`<style>
      body { margin: 0; font: 14px system-ui, sans-serif }
      .app-main { height: 100vh; overflow: auto }
      .row { display: grid; grid-template-columns: 48px 4fr 2fr 2fr 48px 64px; height: 48px; align-items: center; gap: 12px; padding: 0 16px }
      .row span { overflow: hidden; white-space: nowrap; text-overflow: ellipsis }
    </style><div class="app-main"></div>`)
    await page.evaluate((count) => {
      const main = document.querySelector('.app-main')!
      const html: string[] = []
      for (let i = 0; i < count; i++)
        html.push(
          `<div class="row" data-testid="song-row"><span>${i + 1}</span><span>Song number ${i + 1} of the archive</span><span>Artist ${i % 97}</span><span>Album ${i % 211}</span><span>♡</span><span>${3 + (i % 3)}:${String(i % 60).padStart(2, '0')}</span></div>`,
        )
      main.innerHTML = html.join('')
    }, rows)
    const scrolls: Scroll[] = []
    for (let run = 0; run < runs; run++) scrolls.push(await scrollPageToEnd(page))
    return scrolls
  } finally {
    await page.close()
  }
}

/** Enter in the search field (the last keystroke) until the result sections are painted. */
async function searchOnce(app: App, words: string): Promise<number> {
  const input = app.page.getByTestId('search-input')
  // Back to the empty state (recent searches), so the results appear anew.
  await input.fill('')
  await app.page.getByTestId('recent-searches').waitFor()
  return app.page.evaluate(async (w) => {
    const el = document.querySelector<HTMLInputElement>('[data-testid="search-input"]')!
    el.value = w
    el.dispatchEvent(new Event('input', { bubbles: true }))
    const t0 = performance.now()
    el.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }))
    await new Promise<void>((resolve) => {
      const check = () =>
        document.querySelector('[data-testid="search-results"], .search-view .common-state.empty')
          ? requestAnimationFrame(() => resolve())
          : requestAnimationFrame(check)
      check()
    })
    return performance.now() - t0
  }, words)
}

async function serverSearch(app: App, words: string): Promise<number> {
  const t0 = performance.now()
  await fetch(`${app.sourceUrl}/search?keywords=${encodeURIComponent(words)}&limit=20`).then((r) => r.json())
  return performance.now() - t0
}

/**
 * The first open split in three: the core (data source, validation of the first rows), the bridge (the
 * same answer crossing again, now from the core's cache: what the page waits for beyond the core) and
 * the render (the rest, until the first rows are painted).
 */
async function firstOpenFigures(
  app: App,
  core: ReturnType<typeof watchCore>,
  colds: Array<{ ms: number; core: number }>,
  which: string,
  target: string,
): Promise<Figure[]> {
  const id = decodeURIComponent(new URL(app.page.url()).hash.split('/').pop()!)
  const bridge: number[] = []
  for (let run = 0; run < RUNS; run++) {
    const total = await app.page.evaluate(async (playlist) => {
      const t = performance.now()
      await window.cadence.invoke('catalog:playlist', { id: playlist })
      return performance.now() - t
    }, id)
    const inCore = core.take('catalog:playlist').reduce((a, b) => a + b, 0)
    bridge.push(Math.max(0, total - inCore))
  }
  const bridgeMs = median(bridge)
  const ms = colds.map((c) => c.ms)
  const coreMs = colds.map((c) => c.core)
  const renderMs = colds.map((c) => Math.max(0, c.ms - c.core - bridgeMs))
  return [
    {
      ...summarise(`first open, nothing cached (${which})`, ms, 'ms', target),
      note: `median of ${colds.length} opens, each in a new page with the core's cache cleared: core ${Math.round(median(coreMs))} ms (data source + the first rows validated), bridge ${Math.round(bridgeMs)} ms (test bridge, header + first rows), render ${Math.round(median(renderMs))} ms`,
    },
    summarise('  of which core', coreMs, 'ms'),
    { figure: '  of which bridge (test bridge)', value: round(bridgeMs), unit: 'ms' },
    summarise('  of which render', renderMs, 'ms'),
  ]
}

/** Opens the playlist with nothing cached: a new page (no store) and the core's cache cleared. */
async function coldOpens(
  app: App,
  core: ReturnType<typeof watchCore>,
  name: string,
  runs: number,
): Promise<{
  colds: Array<{ ms: number; core: number }>
  first: { ms: number; rows: number; total: number }
}> {
  const colds: Array<{ ms: number; core: number }> = []
  let first: { ms: number; rows: number; total: number } | undefined
  for (let run = 0; run < runs; run++) {
    if (run > 0) {
      // A new page at Home (a reload would open the playlist again from its URL, filling the store).
      await app.page.goto('about:blank')
      await app.page.goto(`${app.appUrl}/index.html#/`)
      await app.page.getByTestId('sidebar-account').waitFor({ timeout: 60_000 })
      await app.page.evaluate('window.__name = (f) => f')
    }
    await core.settle()
    app.core.api().clearCache?.()
    core.take('catalog:playlist')
    const cold = await openPlaylist(app, false, name)
    colds.push({ ms: cold.ms, core: core.take('catalog:playlist').reduce((a, b) => a + b, 0) })
    first ??= cold
    await core.settle()
  }
  return { colds, first: first! }
}

async function heapMB(app: App): Promise<number> {
  const cdp = await app.page.context().newCDPSession(app.page)
  try {
    await cdp.send('HeapProfiler.collectGarbage')
    await cdp.send('HeapProfiler.collectGarbage')
    const { usedSize } = await cdp.send('Runtime.getHeapUsage')
    return round(usedSize / 2 ** 20, 1)
  } finally {
    await cdp.detach()
  }
}

export const HUGE_SONGS = 100_000
export const HUGE_PLAYLIST = 'The Huge Archive'

/**
 * The 100,000-song playlist (`--demo 100000` makes it): first open with its breakdown, the renderer's
 * heap after opening and after scrolling to the end, and Play all (every row fetched in the background).
 */
export async function benchHuge(): Promise<Figure[]> {
  const figures: Figure[] = []
  const app = await startApp({ demo: HUGE_SONGS })
  try {
    await app.page.getByTestId('sidebar-account').waitFor({ timeout: 120_000 })
    await app.page.evaluate('window.__name = (f) => f')
    const core = watchCore(app)
    const before = await heapMB(app)
    const { colds, first: cold } = await coldOpens(app, core, HUGE_PLAYLIST, RUNS)
    figures.push(
      ...(await firstOpenFigures(app, core, colds, `${cold.total}-song ${HUGE_PLAYLIST}`, '<= 500')),
    )
    const opened = await heapMB(app)
    const scroll = await scrollToEnd(app)
    await core.settle()
    const scrolled = await heapMB(app)
    figures.push({
      figure: `renderer heap, ${HUGE_PLAYLIST} open and scrolled to the end`,
      value: scrolled,
      unit: 'MB',
      target: '<= 150',
      note: `after GC; ${before} MB before the first open, ${opened} MB once open`,
    })
    figures.push({
      figure: `scroll to the end (${HUGE_SONGS} songs): longest frame`,
      value: round(scroll.longest),
      unit: 'ms',
      target: '<= 50',
      note: `${scroll.frames} frames, ${scroll.over50} over 50 ms, median ${round(scroll.median)} ms, at most ${scroll.maxRows} rows in the DOM`,
    })
    // Play all: every row crosses in bulk pages before the queue is set.
    const t0 = performance.now()
    await app.page.getByTestId('play-all').click()
    await app.page.waitForFunction(
      (n) => {
        const root = document.querySelector('#app') as unknown as {
          __vue_app__: { config: { globalProperties: { $pinia: { _s: Map<string, { songs: unknown[] }> } } } }
        }
        return (root.__vue_app__.config.globalProperties.$pinia._s.get('queue')?.songs.length ?? 0) > n
      },
      HUGE_SONGS * 0.8,
      { timeout: 120_000, polling: 50 },
    )
    figures.push({
      figure: `play all, ${HUGE_SONGS} songs: click to the whole list queued`,
      value: round(performance.now() - t0),
      unit: 'ms',
      note: 'every row fetched from main in pages of 2,000',
    })
    await core.settle()
    figures.push({
      figure: `renderer heap, ${HUGE_SONGS} songs queued`,
      value: await heapMB(app),
      unit: 'MB',
      note: 'after GC; every row in the playlist store and the queue',
    })
  } finally {
    await app.close()
  }
  return figures
}

export async function benchUi(options: { liked?: boolean } = {}): Promise<Figure[]> {
  const liked = options.liked ?? false
  const figures: Figure[] = []
  const app = await startApp({ demo: SONGS })
  try {
    await app.page.getByTestId('sidebar-account').waitFor({ timeout: 60_000 })
    // tsx (esbuild keepNames) wraps named functions in the evaluated code with `__name`.
    await app.page.evaluate('window.__name = (f) => f')
    if (liked) await likeEverything(app)
    const core = watchCore(app)
    const which = liked ? 'liked songs' : BIG_PLAYLIST

    // The first open fetches and validates the playlist (nothing cached yet) and sends it across the
    // test bridge (Playwright bindings, far slower than Electron's IPC for 3.7 MB): reported apart.
    let cold: { ms: number; rows: number; total: number }
    if (liked) {
      cold = await openPlaylist(app, liked)
      const coldCore = core.take('catalog:playlist').reduce((a, b) => a + b, 0)
      await core.settle()
      const runs = [{ ms: cold.ms, core: coldCore }]
      figures.push(...(await firstOpenFigures(app, core, runs, `${cold.total}-song ${which}`, '<= 200')))
    } else {
      const opens = await coldOpens(app, core, BIG_PLAYLIST, RUNS)
      cold = opens.first
      figures.push(
        ...(await firstOpenFigures(app, core, opens.colds, `${cold.total}-song ${which}`, '<= 200')),
      )
    }

    // Later opens render the playlist the store holds at once (and refresh it behind): render time.
    const opens: number[] = []
    let rows = cold.rows
    for (let run = 0; run < RUNS; run++) {
      const result = await openPlaylist(app, liked)
      opens.push(result.ms)
      rows = Math.max(rows, result.rows)
      await core.settle()
    }
    figures.push({
      ...summarise(`click to first rows painted (${cold.total}-song ${which})`, opens, 'ms', '< 200'),
      note: 'the playlist as the store holds it, refreshed behind (not waited for)',
    })

    const scrolls: Scroll[] = []
    for (let run = 0; run < SCROLLS; run++) scrolls.push(await scrollToEnd(app))
    figures.push({
      figure: 'song row elements in the DOM',
      value: Math.max(rows, ...scrolls.map((s) => s.maxRows)),
      unit: 'rows',
      target: '<= 100',
    })
    figures.push({
      ...summarise(
        `scroll to the end: longest frame (${scrolls[0].frames} frames, ${SCROLLS} runs)`,
        scrolls.map((s) => s.longest),
        'ms',
        '<= 50',
      ),
      note: scrolls
        .map((s) => `longest five ${s.top.map((d) => Math.round(d)).join(', ')} ms, ${s.over50} over 50 ms`)
        .join('; '),
    })
    const plain = await plainListScrolls(app, cold.total, SCROLLS)
    figures.push({
      ...summarise(
        `floor: a plain ${cold.total}-row list in the same browser, scrolled the same way: longest frame`,
        plain.map((s) => s.longest),
        'ms',
      ),
      note: plain
        .map((s) => `longest five ${s.top.map((d) => Math.round(d)).join(', ')} ms, ${s.over50} over 50 ms`)
        .join('; '),
    })
    figures.push(
      summarise(
        'scroll to the end: frames over 50 ms',
        scrolls.map((s) => s.over50),
        'frames',
      ),
    )
    const cpu = await scrollCpu(app)
    figures.push({
      figure: 'scroll to the end: longest main-thread task, CPU time',
      value: round(cpu.longest),
      unit: 'ms',
      target: '<= 50',
      note: `${cpu.over50} of ${cpu.tasks} tasks over 50 ms of CPU time (a traced fourth run)`,
    })
    figures.push(
      summarise(
        'scroll to the end: median frame',
        scrolls.map((s) => s.median),
        'ms',
      ),
    )

    await app.page.getByTestId('nav-search').click()
    await app.page.getByTestId('search-input').waitFor()
    const words = ['night', 'love', 'fire', 'star', 'rain', 'dream', 'sea']
    const ui: number[] = []
    const server: number[] = []
    for (const w of words) {
      ui.push(await searchOnce(app, w))
      // The server's own time for the same query, asked directly (median of three).
      server.push(median(await Promise.all([0, 1, 2].map(() => serverSearch(app, w)))))
    }
    const overhead = ui.map((ms, i) => ms - server[i])
    figures.push({
      ...summarise('search: Enter to results painted', ui, 'ms'),
    })
    figures.push(summarise('search: server time for the same query', server, 'ms'))
    figures.push({
      ...summarise('search overhead (painted minus server)', overhead, 'ms', '< 50'),
      note: 'the 250 ms typing debounce is not counted: Enter searches at once',
    })
  } finally {
    await app.close()
  }
  return figures
}

/**
 * `npx tsx test/bench/ui.ts --scroll`: only the scroll figures and their floor (the playlist opened once),
 * for a loaded machine where the whole suite takes too long.
 */
export async function benchScroll(): Promise<Figure[]> {
  const app = await startApp({ demo: SONGS })
  try {
    await app.page.getByTestId('sidebar-account').waitFor({ timeout: 120_000 })
    await app.page.evaluate('window.__name = (f) => f')
    const opened = await openPlaylist(app, false)
    const scrolls: Scroll[] = []
    for (let run = 0; run < SCROLLS; run++) scrolls.push(await scrollToEnd(app))
    const plain = await plainListScrolls(app, opened.total, SCROLLS)
    const cpu = await scrollCpu(app)
    const note = (list: Scroll[]) =>
      list
        .map((s) => `longest five ${s.top.map((d) => Math.round(d)).join(', ')} ms, ${s.over50} over 50 ms`)
        .join('; ')
    return [
      {
        ...summarise(
          `scroll to the end (${opened.total} songs): longest frame`,
          scrolls.map((s) => s.longest),
          'ms',
          '<= 50',
        ),
        note: note(scrolls),
      },
      {
        ...summarise(
          `floor: a plain ${opened.total}-row list, same browser: longest frame`,
          plain.map((s) => s.longest),
          'ms',
        ),
        note: note(plain),
      },
      {
        figure: 'scroll to the end: longest main-thread task, CPU time',
        value: round(cpu.longest),
        unit: 'ms',
        target: '<= 50',
      },
    ]
  } finally {
    await app.close()
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const figures = process.argv.includes('--scroll')
    ? await benchScroll()
    : process.argv.includes('--huge')
      ? await benchHuge()
      : await benchUi({ liked: process.argv.includes('--liked') })
  printTable(figures)
  for (const f of figures) if (f.note) console.log(`${f.figure}: ${f.note}`)
}
