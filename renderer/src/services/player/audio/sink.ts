/**
 * The output device of the Web Audio output: `AudioContext.setSinkId` (Chromium 110 and later). It only
 * applies what `device.ts` decided; where the browser has no such method the choice is not available.
 */

/** What applying a device came to. */
export type SinkResult = 'done' | 'unsupported' | 'refused'

type SinkContext = AudioContext & { setSinkId?: (sinkId: string) => Promise<void>; sinkId?: unknown }

/** Whether this browser can play a context on a chosen device. */
export function canChooseSink(): boolean {
  return (
    typeof AudioContext !== 'undefined' &&
    typeof (AudioContext.prototype as Partial<SinkContext>).setSinkId === 'function'
  )
}

/**
 * Plays the context on `sinkId` ('' = the system default). The context keeps running while it moves, so
 * the music does not stop. `refused`: the device is gone, or the page may not use it.
 */
export async function applySink(context: AudioContext, sinkId: string): Promise<SinkResult> {
  const sink = context as SinkContext
  if (typeof sink.setSinkId !== 'function') return 'unsupported'
  if (sink.sinkId === sinkId) return 'done'
  try {
    await sink.setSinkId(sinkId)
    return 'done'
  } catch {
    return 'refused'
  }
}
