import { pathToFileURL } from 'node:url'
import { startApp } from '../e2e/harness'
import { BIG_PLAYLIST, HUGE_PLAYLIST, HUGE_SONGS, SONGS, openPlaylist, scrollToEnd, traceDuring } from './ui'

/**
 * `npx tsx test/bench/trace-scroll.ts [--huge]`: scrolls a long playlist to the end under a Chromium
 * trace and prints the longest main-thread tasks with what ran inside them (script, GC, layout, paint).
 * A diagnosis tool, not a figure: it is how the 100,000-song list's long frames were found to be major
 * GCs of our own garbage (docs/performance.md). Uses the demo's 10,000-song "The Big Archive", or with
 * `--huge` the 100,000-song "The Huge Archive".
 */

const CATEGORIES = [
  'toplevel',
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'v8',
  'disabled-by-default-v8.gc',
].join(',')
/** What is worth naming inside a long task. */
const PARTS =
  /^(MajorGC|MinorGC|FunctionCall|FireAnimationFrame|EventDispatch|Layout|UpdateLayoutTree|Paint|EvaluateScript)$/

export async function traceScroll(huge: boolean, show = 6): Promise<void> {
  const name = huge ? HUGE_PLAYLIST : BIG_PLAYLIST
  const app = await startApp({ demo: huge ? HUGE_SONGS : SONGS })
  try {
    await app.page.getByTestId('sidebar-account').waitFor({ timeout: 120_000 })
    await app.page.evaluate('window.__name = (f) => f')
    await openPlaylist(app, false, name)
    const { result: scroll, events } = await traceDuring(app, CATEGORIES, () => scrollToEnd(app))

    const ms = (us: number | undefined) => Math.round((us ?? 0) / 1000)
    console.log(
      `${name}: ${scroll.frames} frames, median ${scroll.median.toFixed(1)} ms, longest ${scroll.top.map((d) => Math.round(d)).join(', ')} ms (under tracing)`,
    )
    const tasks = events
      .filter((e) => e.ph === 'X' && e.name === 'RunTask')
      .sort((a, b) => (b.dur ?? 0) - (a.dur ?? 0))
      .slice(0, show)
    for (const task of tasks) {
      const end = task.ts + (task.dur ?? 0)
      const parts = events
        .filter(
          (e) =>
            e.ph === 'X' &&
            PARTS.test(e.name) &&
            e.pid === task.pid &&
            e.tid === task.tid &&
            e.ts >= task.ts &&
            e.ts + (e.dur ?? 0) <= end &&
            (e.dur ?? 0) >= 3000,
        )
        .map((e) => {
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
