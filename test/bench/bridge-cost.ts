import { readdirSync, readFileSync } from 'node:fs'
import { startApp } from '../e2e/harness'
import { findSongs, playable } from '../e2e/playback-support'

/**
 * `npx tsx test/bench/bridge-cost.ts` (build first): what one media request costs Chromium when it
 * crosses the end-to-end harness's bridge (a Playwright binding, the body in base64), the transport the
 * benches' CPU figures include and Electron's `protocol.handle` does not have. It fetches 20 ranges of
 * 882,000 bytes (5 s of 16-bit 44.1 kHz stereo, one chunk of the player) from a page with nothing
 * playing, and prints Chromium's CPU per request by process (every Chromium on the machine: run it with
 * no other browser running), and this process's (harness and core).
 */

const CHUNK_BYTES = 882_000
const REQUESTS = 20

/** CPU ticks (10 ms) of this machine's Chromium processes, by process type. */
function chromiumTicks(): Record<string, number> {
  const out: Record<string, number> = {}
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ')
      if (!cmdline.includes('chromium')) continue
      const type = /--type=([a-z-]+)/.exec(cmdline)?.[1] ?? 'browser'
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
      out[type] = (out[type] ?? 0) + Number(stat[11]) + Number(stat[12])
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return out
}

const app = await startApp()
try {
  const [song] = await findSongs(app, 1, playable)
  await app.page.getByTestId('now-playing').waitFor()
  const url = `cadence-media://song/builtin/${song.id}?br=320000`
  const before = chromiumTicks()
  const ownBefore = process.cpuUsage()
  const started = Date.now()
  await app.page.evaluate(
    async ([address, count, size]) => {
      for (let i = 0; i < count; i++) {
        const from = 44 + i * 1000
        const answer = await fetch(address, { headers: { Range: `bytes=${from}-${from + size - 1}` } })
        await answer.arrayBuffer()
      }
    },
    [url, REQUESTS, CHUNK_BYTES] as const,
  )
  const after = chromiumTicks()
  const own = process.cpuUsage(ownBefore)
  const perRequest = (ticks: number) => `${((ticks * 10) / REQUESTS).toFixed(1)} ms`
  console.log(`${REQUESTS} media requests of ${CHUNK_BYTES} bytes through the test bridge:`)
  console.log(`  wall time per request: ${((Date.now() - started) / REQUESTS).toFixed(1)} ms`)
  for (const [type, ticks] of Object.entries(after))
    if (ticks - (before[type] ?? 0) > 0)
      console.log(`  Chromium ${type}: ${perRequest(ticks - (before[type] ?? 0))} of CPU per request`)
  console.log(
    `  this process (harness and core): ${((own.user + own.system) / 1000 / REQUESTS).toFixed(1)} ms per request`,
  )
} finally {
  await app.close()
}
