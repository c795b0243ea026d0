import { afterEach, describe, expect, it, vi } from 'vitest'
import { createHeadPrefetch, HEAD_KEEP_MS, HEAD_RANGE } from '@renderer/services/player/head-prefetch'

/** A network that answers every range with its own bytes and counts what it was asked. */
function network() {
  const asked: Array<{ url: string; range: string | null; signal?: AbortSignal | null }> = []
  const answer = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const range = new Headers(init?.headers).get('Range')
    asked.push({ url: String(input), range, signal: init?.signal })
    return new Response(new Uint8Array([1, 2, 3]), {
      status: 206,
      headers: { 'content-range': 'bytes 0-2/100' },
    })
  }) as typeof fetch
  return { asked, fetch: answer }
}

describe('head prefetch', () => {
  afterEach(() => vi.useRealTimers())

  it("answers the output's head request from the head fetched ahead, once asked of the network", async () => {
    const net = network()
    const heads = createHeadPrefetch(() => net.fetch)
    heads.warm('cadence-media://song/a')
    heads.warm('cadence-media://song/a')
    const answer = await heads.fetch('cadence-media://song/a', { headers: { Range: HEAD_RANGE } })
    const again = await heads.fetch('cadence-media://song/a', { headers: { Range: HEAD_RANGE } })
    expect(net.asked).toHaveLength(1)
    expect(answer.status).toBe(206)
    expect(answer.headers.get('content-range')).toBe('bytes 0-2/100')
    expect([...new Uint8Array(await answer.arrayBuffer())]).toEqual([1, 2, 3])
    expect([...new Uint8Array(await again.arrayBuffer())]).toEqual([1, 2, 3])
    // Other ranges and other songs go to the network.
    await heads.fetch('cadence-media://song/a', { headers: { Range: 'bytes=65536-' } })
    await heads.fetch('cadence-media://song/b', { headers: { Range: HEAD_RANGE } })
    expect(net.asked.map((a) => [a.url, a.range])).toEqual([
      ['cadence-media://song/a', HEAD_RANGE],
      ['cadence-media://song/a', 'bytes=65536-'],
      ['cadence-media://song/b', HEAD_RANGE],
    ])
  })

  it('drops a head no play took, cancelling its fetch', async () => {
    vi.useFakeTimers()
    const net = network()
    const heads = createHeadPrefetch(() => net.fetch)
    heads.warm('cadence-media://song/a')
    vi.advanceTimersByTime(HEAD_KEEP_MS + 1)
    expect(net.asked[0].signal?.aborted).toBe(true)
    await heads.fetch('cadence-media://song/a', { headers: { Range: HEAD_RANGE } })
    expect(net.asked).toHaveLength(2)
  })
})
