import type { ReplayGain } from '@shared/audio/gain'

/** Kept for the songs resolved lately: the next one's is read as it opens. */
const KEEP = 64
const known = new Map<string, ReplayGain>()

/**
 * Remembers a resolved song's ReplayGain tags (`meta.replayGain`) under its media URL, so its output
 * (`gain-stage.ts`) starts at that gain until the song's loudness is measured.
 */
export function rememberReplayGain(url: string | undefined, replayGain: ReplayGain | undefined): void {
  if (!url || !replayGain || !Number.isFinite(replayGain.trackGain)) return
  known.delete(url)
  known.set(url, replayGain)
  if (known.size > KEEP) known.delete(known.keys().next().value as string)
}

export function replayGainFor(url: string): ReplayGain | undefined {
  return known.get(url)
}
