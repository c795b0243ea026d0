/**
 * The gain a song plays at: toward a loudness target from what was measured (EBU R128 integrated
 * loudness and true peak), never so much that its true peak passes the ceiling, and a safe gain for a
 * song not measured yet, corrected later by a ramp slow enough not to be heard as a jump.
 */

export const LOUDNESS_TARGETS = { '-14': -14, '-18': -18, off: null } as const
export type LoudnessTarget = keyof typeof LOUDNESS_TARGETS
export const DEFAULT_LOUDNESS_TARGET: LoudnessTarget = '-14'

/** Highest true peak after gain (dBTP): 1 dB of room for lossy decoding and the limiter. */
export const TRUE_PEAK_CEILING = -1
/** Most a quiet song is raised. */
export const MAX_BOOST_DB = 12
/**
 * Loudness assumed for a song not yet measured: as loud as commercial masters get, so a first play is
 * never louder than the target; once measured the gain rises to where it belongs.
 */
export const UNMEASURED_ASSUMED_LUFS = -7

export interface Measured {
  integrated: number
  truePeak: number
}

/** A song's ReplayGain tags as its source gives them (`meta.replayGain`): dB, and the peak as a ratio. */
export interface ReplayGain {
  trackGain: number
  trackPeak?: number
  albumGain?: number
  albumPeak?: number
}

/** ReplayGain 2's reference loudness: a track gain brings the song to this (89 dB SPL). */
export const REPLAYGAIN_REFERENCE_LUFS = -18

/**
 * The loudness ReplayGain tags imply: the reference minus the gain, and the sample peak as the true peak
 * (a song without a peak tag is taken to reach full scale, so it is never raised). The track's gain and
 * peak, or with `album` (the queue plays the song in its album's order: `shared/player/album-order.ts`)
 * the album's, when the tags have an album gain.
 */
export function replayGainLoudness(tags: ReplayGain, album = false): Measured {
  const useAlbum = album && Number.isFinite(tags.albumGain)
  const gain = useAlbum ? tags.albumGain! : tags.trackGain
  const ratio = useAlbum ? tags.albumPeak : tags.trackPeak
  const peak = ratio !== undefined && ratio > 0 ? 20 * Math.log10(ratio) : 0
  return { integrated: REPLAYGAIN_REFERENCE_LUFS - gain, truePeak: peak }
}

/**
 * The gain in dB for a song at `target`: from its measured loudness, else from its ReplayGain tags
 * (the first gain until it is measured; the album's with `album`, see `replayGainLoudness`), else the
 * safe gain of a song not measured yet.
 */
export function chooseGainDb(
  measured: Measured | undefined,
  target: LoudnessTarget,
  replayGain?: ReplayGain,
  album = false,
): number {
  const level = LOUDNESS_TARGETS[target]
  if (level === null) return 0
  if (!measured && replayGain && Number.isFinite(replayGain.trackGain)) {
    return chooseGainDb(replayGainLoudness(replayGain, album), target)
  }
  if (!measured) return Math.min(0, level - UNMEASURED_ASSUMED_LUFS)
  if (!Number.isFinite(measured.integrated)) return 0
  const toward = Math.min(level - measured.integrated, MAX_BOOST_DB)
  // Raise only as far as the true peak allows; a cut is always allowed.
  const room = Number.isFinite(measured.truePeak) ? TRUE_PEAK_CEILING - measured.truePeak : MAX_BOOST_DB
  return toward > 0 ? Math.max(0, Math.min(toward, room)) : toward
}

/**
 * How long a change of gain while the song plays is spread over: a second for each 3 dB (at least
 * 0.5 s, at most 4 s), slow enough to be heard as no step at all.
 */
export function gainRampSeconds(fromDb: number, toDb: number): number {
  const step = Math.abs(toDb - fromDb)
  if (step < 0.05) return 0
  return Math.min(4, Math.max(0.5, step / 3))
}

export const dbToGain = (db: number) => 10 ** (db / 20)
