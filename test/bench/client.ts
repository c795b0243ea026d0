/**
 * API client benchmark: memory while a 100 MB answer is refused, and how long reading a large playlist
 * holds the main process's event loop (the longest single block, from `monitorEventLoopDelay`).
 * Figures, not pass/fail. Run alone with `npx tsx test/bench/client.ts`.
 */
import { createServer } from 'node:http'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { pathToFileURL } from 'node:url'
import { createApiClient } from '@main/core/api/client'
import { startStreamingSource } from '../support/streaming-source'
import { printTable, round, summarise } from './stats'
import type { Figure } from './stats'

const MB = 1024 * 1024
const RUNS = 5

async function refusedAnswerMemory(): Promise<Figure[]> {
  const source = await startStreamingSource(100 * MB)
  try {
    const rss: number[] = []
    const buffers: number[] = []
    const sent: number[] = []
    for (let run = 0; run < RUNS; run++) {
      const api = createApiClient({ baseUrl: source.url, getCredential: () => undefined, cacheTtlMs: 0 })
      await api.toplists()
      globalThis.gc?.()
      const rest = process.memoryUsage()
      let peak = rest
      const sample = () => {
        const now = process.memoryUsage()
        peak = {
          ...now,
          rss: Math.max(peak.rss, now.rss),
          arrayBuffers: Math.max(peak.arrayBuffers, now.arrayBuffers),
        }
      }
      const timer = setInterval(sample, 1)
      await api.playlistDetail(1).catch(() => undefined)
      sample()
      clearInterval(timer)
      rss.push((peak.rss - rest.rss) / MB)
      buffers.push((peak.arrayBuffers - rest.arrayBuffers) / MB)
      sent.push((await source.sent()) / MB)
    }
    return [
      summarise('100 MB answer refused: peak rss above rest', rss, 'MB', '< 64'),
      summarise('100 MB answer refused: peak arrayBuffers above rest', buffers, 'MB', '< 64'),
      summarise('100 MB answer refused: bytes the server got out', sent, 'MB'),
    ]
  } finally {
    source.close()
  }
}

/** A playlist detail shaped like the reference server's (artists, album, privilege). */
function playlistJson(songs: number): Buffer {
  const list = Array.from({ length: songs }, (_, i) => ({
    id: i + 1,
    name: `Song number ${i + 1} 夜に駆ける`,
    tns: ['Into the Night'],
    artists: [{ id: (i % 500) + 1, name: `Artist ${(i % 500) + 1}` }],
    album: {
      id: (i % 800) + 1,
      name: `Album ${(i % 800) + 1}`,
      cover: `/media/cover/album/${(i % 800) + 1}`,
    },
    duration: 180_000 + (i % 60) * 1000,
    privilege: { playable: i % 37 !== 0, bitrates: [128000, 192000, 320000], maxBitrate: 320000 },
  }))
  return Buffer.from(
    JSON.stringify({
      code: 0,
      message: 'Success',
      data: { id: 1, name: 'Big', type: 'normal', songs: list },
    }),
  )
}

/** The longest event-loop block and the time taken by `run`, over RUNS runs after one warm-up. */
async function blockWhile(run: () => Promise<unknown>) {
  const blocks: number[] = []
  const totals: number[] = []
  await run()
  for (let i = 0; i < RUNS; i++) {
    const histogram = monitorEventLoopDelay({ resolution: 1 })
    histogram.enable()
    const start = performance.now()
    await run()
    totals.push(performance.now() - start)
    // The histogram records a block when its next tick runs late: let that tick come.
    await new Promise((done) => setTimeout(done, 20))
    histogram.disable()
    blocks.push(histogram.max / 1e6)
  }
  return { blocks, totals }
}

async function largeReadBlock(): Promise<Figure[]> {
  const figures: Figure[] = []
  for (const songs of [10_000, 50_000]) {
    const body = playlistJson(songs)
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': body.length })
      res.end(body)
    })
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
    const address = server.address()
    const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
    const api = createApiClient({ baseUrl: url, getCredential: () => undefined, cacheTtlMs: 0 })
    const size = `${songs.toLocaleString('en')}-song playlist (${round(body.length / MB, 1)} MB)`
    try {
      // What the app does with a long list: the paged catalogue's read (songs validated when shown).
      const paged = await blockWhile(() => api.playlistPage(1))
      // Every song validated at once (`playlistDetail`; no view of the app reads a whole list this way).
      const whole = await blockWhile(() => api.playlistDetail(1))
      figures.push(
        {
          ...summarise(`${size}: longest event-loop block`, paged.blocks, 'ms', '<= 16'),
          note: 'as the paged catalogue reads it',
        },
        summarise(`${size}: whole call`, paged.totals, 'ms'),
        {
          ...summarise(`${size}, every song validated: longest event-loop block`, whole.blocks, 'ms'),
          note: 'playlistDetail',
        },
      )
    } finally {
      server.closeAllConnections()
      server.close()
    }
  }
  return figures
}

export async function benchClient(): Promise<Figure[]> {
  return [...(await refusedAnswerMemory()), ...(await largeReadBlock())]
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const figures = await benchClient()
  printTable(figures)
}
