/**
 * History benchmark (issue 37): main's history file (`core/history/store.ts`, a real SQLite file in a
 * temp folder) holding 100,000 listens: reading the first page "Recently played" asks for when it opens
 * (200 listens, newest first), and writing one listen (one transaction, as `history:record` does).
 * Figures, not pass/fail. Run alone with `npx tsx test/bench/history.ts`.
 */
// Relative imports: tsx runs this file with the root tsconfig, which has no path aliases.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { openHistoryStore } from '../../electron/main/core/history/store'
import type { Listen } from '../../shared/ipc/history'
import { summarise } from './stats'
import type { Figure } from './stats'

const LISTENS = 100_000
const RUNS = 50
const PAGE = 200

const listen = (n: number): Listen => ({
  listenedAt: 1_700_000_000_000 + n * 90_000,
  sourceId: 'builtin',
  songId: String(n % 5000),
  title: `Song ${n % 5000}`,
  artists: ['Mira Vale', 'Ode'],
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

export async function benchHistory(): Promise<Figure[]> {
  const dir = await mkdtemp(join(tmpdir(), 'cadence-bench-history-'))
  try {
    const store = openHistoryStore(join(dir, 'history.sqlite'))
    for (let start = 0; start < LISTENS; start += 10_000) {
      store.add(Array.from({ length: 10_000 }, (_, i) => listen(start + i)))
    }
    let next = LISTENS
    const figures = [
      summarise(
        `Recently played first page (${PAGE} listens, main's store), ${LISTENS.toLocaleString('en')} listens`,
        time(() => void store.page(PAGE)),
        'ms',
        '≤ 100 ms (the view open)',
      ),
      summarise(
        'record one listen',
        time(() => void store.add([listen(next++)])),
        'ms',
      ),
    ]
    store.close()
    return figures
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

async function main() {
  for (const figure of await benchHistory()) console.log(`${figure.figure}: ${figure.value} ${figure.unit}`)
}
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) void main()
