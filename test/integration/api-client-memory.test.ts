import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { createInterface } from 'node:readline'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApiClient } from '@main/core/api/client'
import { DataSourceError } from '@shared/errors'

/**
 * A data source that streams a 100 MB answer, in its own process so that only the client's memory is
 * measured here. It reports on stdout how many bytes it got out before the client hung up.
 */
const STREAMER = `
const http = require('node:http')
const TOTAL = 100 * 1024 * 1024
const chunk = Buffer.from('{"id":1,"name":"a song with a name"},'.repeat(1771))
const server = http.createServer((req, res) => {
  if (req.url.startsWith('/playlist/toplist')) {
    res.writeHead(200, { 'Content-Type': 'application/json' })
    return res.end('{"code":0,"message":"Success","data":[{"id":1,"name":"small"}]}')
  }
  res.writeHead(200, { 'Content-Type': 'application/json' })
  res.write('{"code":0,"message":"Success","data":{"id":1,"name":"huge","songs":[')
  let sent = 0
  const pump = () => {
    while (sent < TOTAL) {
      sent += chunk.length
      if (!res.write(chunk)) return void res.once('drain', pump)
    }
    res.end('{"id":1}]}}')
  }
  res.on('close', () => console.log('sent ' + sent))
  pump()
})
server.listen(0, '127.0.0.1', () => console.log('port ' + server.address().port))
`

const MB = 1024 * 1024

describe('API client memory against a 100 MB answer', () => {
  let child: ChildProcess
  let baseUrl: string
  const lines: string[] = []
  const waiters: Array<() => void> = []

  beforeAll(async () => {
    child = spawn(process.execPath, ['-e', STREAMER], { stdio: ['ignore', 'pipe', 'inherit'] })
    createInterface({ input: child.stdout! }).on('line', (line) => {
      lines.push(line)
      for (const wake of waiters.splice(0)) wake()
    })
    const port = await nextLine('port ')
    baseUrl = `http://127.0.0.1:${port}`
  })
  afterAll(() => void child?.kill())

  async function nextLine(prefix: string): Promise<string> {
    for (;;) {
      const found = lines.find((line) => line.startsWith(prefix))
      if (found) return found.slice(prefix.length)
      await new Promise<void>((wake) => waiters.push(wake))
    }
  }

  it('fails as invalid-response, stops the download early, and stays under 64 MB above rest', async () => {
    const api = createApiClient({ baseUrl, getCredential: () => undefined, cacheTtlMs: 0, retryDelayMs: 1 })
    // Warm up: modules, fetch's connection pool, zod.
    expect(await api.toplists()).toHaveLength(1)
    globalThis.gc?.()
    const rest = process.memoryUsage()

    let peakRss = rest.rss
    let peakBuffers = rest.arrayBuffers
    let peakHeap = rest.heapUsed
    const sample = () => {
      const now = process.memoryUsage()
      peakRss = Math.max(peakRss, now.rss)
      peakBuffers = Math.max(peakBuffers, now.arrayBuffers)
      peakHeap = Math.max(peakHeap, now.heapUsed)
    }
    const sampler = setInterval(sample, 1)
    const error = await api.playlistDetail(1).then(
      () => undefined,
      (e: unknown) => e,
    )
    sample()
    clearInterval(sampler)

    expect(error).toBeInstanceOf(DataSourceError)
    expect(error).toMatchObject({ kind: 'invalid-response', endpoint: '/playlist/detail' })
    expect((error as Error).message).toContain('too large')

    const sent = Number(await nextLine('sent '))
    const figures = {
      rssAboveRestMB: +((peakRss - rest.rss) / MB).toFixed(1),
      arrayBuffersAboveRestMB: +((peakBuffers - rest.arrayBuffers) / MB).toFixed(1),
      heapAboveRestMB: +((peakHeap - rest.heapUsed) / MB).toFixed(1),
      sentByServerMB: +(sent / MB).toFixed(1),
    }
    console.log('100 MB answer:', JSON.stringify(figures))
    expect(figures.rssAboveRestMB).toBeLessThan(64)
    expect(figures.arrayBuffersAboveRestMB).toBeLessThan(64)
    // The client hung up long before the end: what got out is the cap plus socket buffers.
    expect(sent).toBeLessThan(40 * MB)
    // Asked once: a too-large answer is not requested again.
    expect(lines.filter((line) => line.startsWith('sent '))).toHaveLength(1)
  })
})
