import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApiClient } from '@main/core/api/client'
import { DataSourceError } from '@shared/errors'
import { startStreamingSource } from '../support/streaming-source'

const MB = 1024 * 1024

/** Memory while the client refuses a 100 MB answer (the server runs in its own process). */
describe('API client memory against a 100 MB answer', () => {
  let source: Awaited<ReturnType<typeof startStreamingSource>>
  beforeAll(async () => {
    source = await startStreamingSource(100 * MB)
  })
  afterAll(() => source?.close())

  it('fails as invalid-response, stops the download early, and stays under 64 MB above rest', async () => {
    const api = createApiClient({ baseUrl: source.url, getCredential: () => undefined, cacheTtlMs: 0 })
    // Warm up: modules, fetch's connection pool, zod.
    expect(await api.toplists()).toHaveLength(1)
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

    const sent = await source.sent()
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
    expect(source.answered()).toBe(1)
  })
})
