/**
 * History benchmark (issue 37), with 100,000 listens in main's history:
 * - `Recently played open`: in Chromium against the real core and the built renderer, from Home to the
 *   first listens of "Recently played" painted (the route's chunk, `history:page` across the bridge, the
 *   rows rendered): a window-level figure, as `ui.ts` times the views.
 * - `statistics page`: the same for "Your listening, in pictures" (`history:stats` over 100,000 listens,
 *   the top lists and the chart drawn).
 * - `record one listen`: main's history file (`core/history/store.ts`, a real SQLite file in a temp
 *   folder) holding 100,000 listens, one more written (one transaction, as `history:record` does).
 * The listens' covers are the data source's own: covers at a dead address cost far more (each failed
 * image makes every cover on the page look again, `stores/offline.ts`), not what a history of real songs
 * shows. Figures, not pass/fail. Run alone with `npx tsx test/bench/history.ts` (after `npx electron-vite build`).
 */
// Relative imports: tsx runs this file with the root tsconfig, which has no path aliases.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { toListenBrainz } from '../../electron/main/core/history/listenbrainz'
import { openHistoryStore } from '../../electron/main/core/history/store'
import type { Song } from '../../shared/api/models'
import type { Listen } from '../../shared/ipc/history'
import { startApp } from '../e2e/harness'
import type { App } from '../e2e/harness'
import { printTable, summarise } from './stats'
import type { Figure } from './stats'

const LISTENS = 100_000
const RUNS = 50
const VIEW_RUNS = 10

/** Listen `n` of 100,000: 5,000 songs, 400 albums, 300 artists, one every 90 s up to now. */
const listen = (n: number, now = Date.now()): Listen => ({
  listenedAt: now - (LISTENS - n) * 90_000,
  sourceId: 'builtin',
  songId: String(n % 5000),
  title: `Song ${n % 5000}`,
  artists: [`Artist ${n % 300}`, ...(n % 7 === 0 ? ['Ode'] : [])],
  album: `Album ${n % 400}`,
  albumId: String(n % 400),
  durationMs: 180_000 + (n % 60) * 1000,
  cover: `http://127.0.0.1:4000/covers/${n % 400}.png`,
})

function time(run: () => void): number[] {
  const out: number[] = []
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now()
    run()
    out.push(performance.now() - start)
  }
  return out
}

/**
 * From a click on the sidebar link to `ready` (a selector) in the page with the view no longer busy, one
 * frame later (painted). Back to Home between runs, so each open mounts the view and asks main anew.
 */
async function openView(app: App, link: string, ready: string): Promise<number[]> {
  const out: number[] = []
  for (let run = 0; run < VIEW_RUNS + 1; run++) {
    await app.page.getByTestId('nav-home').click()
    await app.page.getByTestId('playlist-card').first().waitFor()
    const ms = await app.page.evaluate(
      async ([link, ready]) => {
        const t0 = performance.now()
        document.querySelector<HTMLElement>(`[data-testid="${link}"]`)!.click()
        await new Promise<void>((resolve) => {
          const check = () =>
            document.querySelector(ready) && !document.querySelector('[aria-busy="true"]')
              ? requestAnimationFrame(() => resolve())
              : requestAnimationFrame(check)
          check()
        })
        return performance.now() - t0
      },
      [link, ready] as const,
    )
    // The first open also loads the view's code: left out, as for the other views.
    if (run > 0) out.push(ms)
  }
  return out
}

async function viewFigures(): Promise<Figure[]> {
  const app = await startApp()
  try {
    const now = Date.now()
    // The covers are the data source's own (a history's covers are the ones its songs had).
    const recommended = await app.core.router.invoke(
      'catalog:recommend-songs',
      { limit: 30 },
      { senderUrl: `${app.appUrl}/index.html` },
    )
    const covers = (recommended.ok ? (recommended.value as Song[]) : [])
      .map((song) => song.album?.cover)
      .filter((cover): cover is string => !!cover)
    if (covers.length === 0) throw new Error('no covers from the data source')
    // Through the import (one write, one `history:changed`), not 100,000 records each telling the window.
    const listens = Array.from({ length: LISTENS }, (_, n) => ({
      ...listen(n, now),
      cover: covers[n % covers.length],
    }))
    app.core.history.importFile(toListenBrainz(listens))
    if (app.core.history.state().count !== LISTENS) throw new Error('history was not filled')
    await app.page.getByTestId('now-playing').waitFor()
    // tsx names the functions it compiles with `__name`; the page has none.
    await app.page.evaluate('window.__name = (f) => f')
    const history = await openView(app, 'nav-history', '[data-testid="history-row"]')
    const stats = await openView(app, 'nav-stats', '[data-testid="stats-chart"][data-bars]')
    const count = LISTENS.toLocaleString('en')
    return [
      {
        ...summarise(`Recently played open, ${count} listens`, history, 'ms', '≤ 100'),
        note: 'window: sidebar click to the first 200 listens painted (history:page, Chromium, built renderer)',
      },
      {
        ...summarise(`statistics page, ${count} listens`, stats, 'ms', '≤ 200'),
        note: 'window: sidebar click to figures, top lists and chart painted (history:stats over the last month)',
      },
    ]
  } finally {
    await app.close()
  }
}

async function recordFigure(): Promise<Figure> {
  const dir = await mkdtemp(join(tmpdir(), 'cadence-bench-history-'))
  try {
    const store = openHistoryStore(join(dir, 'history.sqlite'))
    const now = Date.now() - 86_400_000
    for (let start = 0; start < LISTENS; start += 10_000) {
      store.add(Array.from({ length: 10_000 }, (_, i) => listen(start + i, now)))
    }
    let next = LISTENS
    const figure = summarise(
      'record one listen',
      time(() => void store.add([listen(next++)])),
      'ms',
    )
    store.close()
    return { ...figure, note: `one transaction on a SQLite file of ${LISTENS.toLocaleString('en')} listens` }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

export async function benchHistory(): Promise<Figure[]> {
  return [...(await viewFigures()), await recordFigure()]
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  printTable((await benchHistory()).map((f) => ({ ...f, figure: `history: ${f.figure}` })))
}
