import { pathToFileURL } from 'node:url'
import { startApp } from '../e2e/harness'

/**
 * `npx tsx test/bench/trace-scroll.ts [--huge]`: scrolls a long playlist to the end under a Chromium
 * trace and prints the longest main-thread tasks with what ran inside them (script, GC, layout, paint).
 * A diagnosis tool, not a figure: it is how the 100,000-song list's long frames were found to be major
 * GCs of our own garbage (docs/performance.md). Uses the demo's 10,000-song "The Big Archive", or with
 * `--huge` the 100,000-song "The Huge Archive".
 */

interface TraceEvent {
  name: string
  ph: string
  ts: number
  dur?: number
  tdur?: number
  pid: number
  tid: number
  args?: { data?: { functionName?: string; url?: string } }
}

const CATEGORIES = [
  'toplevel',
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'v8',
  'disabled-by-default-v8.gc',
].join(',')

export async function traceScroll(huge: boolean, show = 6): Promise<void> {
  const name = huge ? 'The Huge Archive' : 'The Big Archive'
  const app = await startApp({ demo: huge ? 100_000 : 10_000 })
  try {
    const { page } = app
    await page.getByTestId('sidebar-account').waitFor({ timeout: 120_000 })
    await page.getByTestId('nav-library').click()
    await page.getByTestId('playlist-card').filter({ hasText: name }).first().click()
    await page.locator('main [data-testid="song-row"]').first().waitFor()

    const events: TraceEvent[] = []
    const cdp = await page.context().newCDPSession(page)
    cdp.on('Tracing.dataCollected', ({ value }) => events.push(...(value as unknown as TraceEvent[])))
    const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve))
    await cdp.send('Tracing.start', { categories: CATEGORIES, transferMode: 'ReportEvents' })
    const frames = await page.evaluate(async () => {
      const main = document.querySelector<HTMLElement>('.app-main')!
      main.scrollTop = 0
      await new Promise((r) => requestAnimationFrame(r))
      const deltas: number[] = []
      let last = performance.now()
      while (main.scrollTop + main.clientHeight < main.scrollHeight - 1) {
        main.scrollTop += 1500
        await new Promise((r) => requestAnimationFrame(r))
        const now = performance.now()
        deltas.push(now - last)
        last = now
      }
      const sorted = [...deltas].sort((a, b) => b - a)
      return { count: deltas.length, longest: sorted.slice(0, 8), median: sorted[sorted.length >> 1] }
    })
    await cdp.send('Tracing.end')
    await complete
    await cdp.detach()

    const ms = (us: number | undefined) => Math.round((us ?? 0) / 1000)
    console.log(
      `${name}: ${frames.count} frames, median ${frames.median.toFixed(1)} ms, longest ${frames.longest.map((d) => Math.round(d)).join(', ')} ms (under tracing)`,
    )
    const tasks = events
      .filter((e) => e.ph === 'X' && e.name === 'RunTask')
      .sort((a, b) => (b.dur ?? 0) - (a.dur ?? 0))
      .slice(0, show)
    for (const task of tasks) {
      const end = task.ts + (task.dur ?? 0)
      const inside = events.filter(
        (e) =>
          e !== task &&
          e.ph === 'X' &&
          e.pid === task.pid &&
          e.tid === task.tid &&
          e.ts >= task.ts &&
          e.ts + (e.dur ?? 0) <= end &&
          (e.dur ?? 0) >= 3000 &&
          /^(MajorGC|MinorGC|FunctionCall|FireAnimationFrame|EventDispatch|Layout|UpdateLayoutTree|Paint|ParseHTML|EvaluateScript)$/.test(
            e.name,
          ),
      )
      const parts = inside.map((e) => {
        const where = e.args?.data?.url ? `@${String(e.args.data.url).split('/').pop()}` : ''
        return `${e.name}${where} ${ms(e.dur)}`
      })
      console.log(`task ${ms(task.dur)} ms (CPU ${ms(task.tdur)}): ${parts.join(', ')}`)
    }
  } finally {
    await app.close()
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await traceScroll(process.argv.includes('--huge'))
}
