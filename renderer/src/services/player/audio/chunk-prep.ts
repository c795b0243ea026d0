import type { PcmSource } from './pcm-source'
import type { Stretcher } from './stretch'

/**
 * Chunk preparation (in the chunk worker, `chunk-service.ts`): the next stretch of a song read from its
 * source (decoded and resampled to the context's rate) and time-stretched to the speed, as one plane
 * per channel. The page makes it an `AudioBuffer` for the scheduler (`renderings.ts`).
 */
export async function prepareChunk(
  source: PcmSource,
  stretcher: Stretcher,
  seconds: number,
  alive: () => boolean,
  then?: number,
): Promise<{ samples: Float32Array[]; last: boolean } | undefined> {
  const read = await source.read(seconds, alive, then)
  if (!read || !alive()) return undefined
  let samples = stretcher.push(read.samples)
  if (read.last) samples = concat(samples, stretcher.flush())
  return { samples, last: read.last }
}

function concat(a: Float32Array[], b: Float32Array[]): Float32Array[] {
  if (!b[0]?.length) return a
  return a.map((channel, c) => {
    const joined = new Float32Array(channel.length + b[c].length)
    joined.set(channel)
    joined.set(b[c], channel.length)
    return joined
  })
}
