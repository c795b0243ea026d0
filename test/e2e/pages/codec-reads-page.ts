import { openCodecSource } from '@renderer/services/player/audio/codec-source'

/**
 * Runs in Chromium (bundled by `codec-reads.test.ts`): reads a served file through the streaming codec
 * source as playback does (a 0.25 s first chunk, then 5 s at a time) and counts the ranges it fetched
 * after the file's first bytes.
 */
async function readThrough(url: string, rate: number) {
  const head = await fetch(url, { headers: { Range: 'bytes=0-65535' } })
  const size = Number(/\/(\d+)$/.exec(head.headers.get('content-range') ?? '')?.[1])
  const ranges: number[] = []
  const read = async (start: number, end: number) => {
    ranges.push(end - start + 1)
    return new Uint8Array(
      await (await fetch(url, { headers: { Range: `bytes=${start}-${end}` } })).arrayBuffer(),
    )
  }
  const source = await openCodecSource({ head: new Uint8Array(await head.arrayBuffer()), size, read }, rate)
  if (!source) return undefined
  source.source.seek(0)
  let frames = 0
  for (let i = 0; ; i++) {
    const chunk = await source.source.read(i === 0 ? 0.25 : 5, () => true)
    if (!chunk) break
    frames += chunk.samples[0].length
    if (chunk.last) break
  }
  return { seconds: frames / rate, ranges, size }
}

export type CodecReads = { readThrough: typeof readThrough }

// `openCodecPage` waits for `window.codec`.
Object.assign(window, { codec: { readThrough } satisfies CodecReads })
