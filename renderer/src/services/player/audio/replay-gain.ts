import type { ReplayGain } from '@shared/audio/gain'

/** Kept for the songs resolved lately: the next one's is read as it opens. */
const KEEP = 64
const known = new Map<string, ReplayGain>()

const within = (value: unknown, low: number, high: number): value is number =>
  typeof value === 'number' && value >= low && value <= high

/**
 * Remembers a resolved song's ReplayGain tags (`meta.replayGain`: gains in dB, peaks as ratios, as its
 * source gave them, so checked here) under its media URL, so its output (`gain-stage.ts`) starts at that
 * gain until the song's loudness is measured.
 */
export function rememberReplayGain(url: string | undefined, tags: unknown): void {
  const { trackGain, trackPeak } = (tags ?? {}) as Record<string, unknown>
  if (!url || !within(trackGain, -60, 60)) return
  known.delete(url)
  known.set(url, within(trackPeak, 1e-6, 10) ? { trackGain, trackPeak } : { trackGain })
  if (known.size > KEEP) known.delete(known.keys().next().value as string)
}

export function replayGainFor(url: string): ReplayGain | undefined {
  return known.get(url)
}
