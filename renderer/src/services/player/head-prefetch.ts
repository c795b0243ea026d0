/**
 * The first range the output asks of a song: its header, 64 KB (`audio/track.ts` opens a song with it,
 * and the loudness analysis reads the same bytes). A song pressed ahead of its play has it fetched here.
 */
export const HEAD_RANGE = `bytes=0-${64 * 1024 - 1}`
/** A head fetched ahead is kept this long for a play to take; then dropped (and its fetch cancelled). */
export const HEAD_KEEP_MS = 10_000

interface Kept {
  answer: Promise<{ status: number; headers: Headers; body: ArrayBuffer } | undefined>
  abort: AbortController
  timer: ReturnType<typeof setTimeout>
}

const urlOf = (input: RequestInfo | URL) =>
  typeof input === 'string' ? input : input instanceof URL ? input.href : input.url

/**
 * Fetches songs' heads ahead of their play (`warm`, on the first press of a row) and answers the
 * output's own request for the same head from them (`fetch`, the output's `OutputOptions.fetch`), so the
 * play's first media request is already answered. A head no play takes is dropped after `HEAD_KEEP_MS`;
 * every other request goes to the network as it would.
 */
export function createHeadPrefetch(base: () => typeof fetch = () => globalThis.fetch) {
  const kept = new Map<string, Kept>()

  function drop(url: string) {
    const entry = kept.get(url)
    if (!entry) return
    kept.delete(url)
    clearTimeout(entry.timer)
    entry.abort.abort()
  }

  function warm(url: string): void {
    if (kept.has(url)) return
    const abort = new AbortController()
    const answer = base()(url, { headers: { Range: HEAD_RANGE }, signal: abort.signal })
      .then(async (response) => {
        if (!response.ok) {
          await response.body?.cancel().catch(() => undefined)
          return undefined
        }
        return { status: response.status, headers: response.headers, body: await response.arrayBuffer() }
      })
      .catch(() => undefined)
    const timer = setTimeout(() => drop(url), HEAD_KEEP_MS)
    kept.set(url, { answer, abort, timer })
    // A failed head is not kept: the play asks the network itself.
    void answer.then((got) => {
      if (!got && kept.get(url)?.answer === answer) drop(url)
    })
  }

  const fetchThrough = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const entry = kept.get(urlOf(input))
    if (entry && new Headers(init?.headers).get('Range') === HEAD_RANGE) {
      const got = await entry.answer
      if (got) return new Response(got.body.slice(0), { status: got.status, headers: got.headers })
    }
    return base()(input, init)
  }) as typeof fetch

  return { warm, fetch: fetchThrough, drop }
}

export type HeadPrefetch = ReturnType<typeof createHeadPrefetch>
