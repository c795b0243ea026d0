import { createHash } from 'node:crypto'

/** A data source's media: bytes by URL, every request counted; `hold` keeps a body open until released. */
export function mediaServer() {
  const files = new Map<string, Uint8Array>()
  const requests: string[] = []
  /** The next requests fail: an HTTP status, or `network` (no answer). */
  const failures: Array<number | 'network'> = []
  let gate: Promise<void> | undefined
  const fetchMedia = (async (input: string | URL | Request) => {
    const url = String(input)
    requests.push(url)
    const failure = failures.shift()
    if (failure === 'network') throw new TypeError('fetch failed')
    if (failure) return new Response('down', { status: failure })
    const bytes = files.get(url)
    if (!bytes) return new Response('missing', { status: 404 })
    const wait = gate
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(bytes.subarray(0, Math.floor(bytes.length / 2)))
        if (wait) await wait
        controller.enqueue(bytes.subarray(Math.floor(bytes.length / 2)))
        controller.close()
      },
    })
    return new Response(body, {
      headers: { 'content-type': 'audio/mpeg', 'content-length': String(bytes.length) },
    })
  }) as typeof fetch
  return {
    fetch: fetchMedia,
    requests,
    failures,
    put(url: string, size: number, fill = 1) {
      const bytes = new Uint8Array(size).map((_, i) => (i * 31 + fill) & 0xff)
      files.set(url, bytes)
      return { url, size, md5: createHash('md5').update(bytes).digest('hex') }
    },
    hold() {
      let release!: () => void
      gate = new Promise<void>((r) => (release = r))
      return () => {
        gate = undefined
        release()
      }
    },
  }
}
