import { chooseGainDb, dbToGain, DEFAULT_LOUDNESS_TARGET, gainRampSeconds } from '@shared/audio/gain'
import type { LoudnessTarget } from '@shared/audio/gain'
import { rampFrom } from './fades'
import { measureLoudness, storedLoudness } from './loudness'
import { playsInAlbumOrder, replayGainFor } from './replay-gain'
import type { Track } from './track'

/**
 * The Web Audio output's loudness stage (`output.ts`): each song's gain node plays it toward the target
 * (−14 LUFS by default) from its measured EBU R128 loudness (`loudness.ts`: measured once in a worker,
 * stored per source and song); an unmeasured song starts at its ReplayGain tags' gain (the album's while
 * the queue plays its album in order), else a safe gain, and is ramped once measured.
 */
export function createGainStage(
  options: { loudnessTarget?: () => LoudnessTarget },
  load: (url: string, range?: string) => Promise<Response>,
  currentContext: () => AudioContext | undefined,
) {
  /**
   * The song's gain toward the loudness target: from its stored measurement, else its ReplayGain tags'
   * gain (`replay-gain.ts`), else the safe gain; until it is measured (in a worker), then ramped to the
   * right one slowly enough not to be heard as a step.
   */
  return function applyLoudness(track: Track) {
    const target = options.loudnessTarget?.() ?? DEFAULT_LOUDNESS_TARGET
    const stored = storedLoudness(track.url)
    track.gainDb = chooseGainDb(stored, target, replayGainFor(track.url), playsInAlbumOrder(track.url))
    track.output.gain.value = dbToGain(track.gainDb)
    if (stored || target === 'off' || !track.streamed) return
    const head = track.head
    // Handed over once: the track need not hold its first bytes any longer.
    track.head = undefined
    measureLoudness(track.url, load, head).then(
      (measured) => {
        const context = currentContext()
        if (!measured || track.disposed || !context) return
        const to = chooseGainDb(measured, target)
        const seconds = gainRampSeconds(track.gainDb, to)
        // From the gain it plays at now (set once at its start), not from an earlier event.
        rampFrom(
          track.output.gain,
          context.currentTime,
          dbToGain(track.gainDb),
          dbToGain(to),
          Math.max(seconds, 0.05),
        )
        track.gainDb = to
      },
      () => undefined,
    )
  }
}
