import type { PcmSource } from './pcm-source'
import type { Stretcher } from './stretch'

/**
 * Chunk preparation (`track.ts`): the next stretch of a song read from its source (decoded and
 * resampled to the context's rate), time-stretched to the speed, and made an `AudioBuffer` for the
 * scheduler (`renderings.ts`).
 */
export async function prepareChunk(
  source: PcmSource,
  stretcher: Stretcher,
  context: BaseAudioContext,
  seconds: number,
  alive: () => boolean,
): Promise<{ buffer?: AudioBuffer; last: boolean } | undefined> {
  const read = await source.read(seconds, alive)
  if (!read || !alive()) return undefined
  let samples = stretcher.push(read.samples)
  if (read.last) samples = concat(samples, stretcher.flush())
  const length = samples[0]?.length ?? 0
  if (length === 0) return { last: read.last }
  const buffer = context.createBuffer(samples.length, length, context.sampleRate)
  samples.forEach((channel, c) => buffer.copyToChannel(channel as Float32Array<ArrayBuffer>, c))
  return { buffer, last: read.last }
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
