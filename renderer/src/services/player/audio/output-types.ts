import type { LoudnessTarget } from '@shared/audio/gain'
import type { EqualiserSettings } from './equaliser'
import type { SongPair } from './gapless'
import type { GraphOptions } from './graph'
import type { PlayerOutput } from './player-output'
import type { SinkResult } from './sink'

/** What the Web Audio output (`output.ts`) is made with, and what it offers beyond the typed output. */

export interface OutputOptions extends GraphOptions {
  /** Fetches a range of a media address (default: `fetch`, which Electron allows on the privileged scheme). */
  fetch?: typeof fetch
  /** The loudness target (default −14 LUFS). */
  loudnessTarget?: () => LoudnessTarget
  /** The crossfade (s; 0, the default, is gapless), read as each following song is planned. */
  crossfadeSeconds?: () => number
}

export type WebAudioOutput = PlayerOutput & {
  /**
   * The song that follows the current one when it ends: opened ahead and started on its last frame, or
   * crossfaded in. `songs` (album ids, track numbers) decides whether a crossfade applies.
   */
  prepare(url: string | undefined, songs?: SongPair): void
  readonly context: AudioContext
  /**
   * A row of the song at `url` pressed (its play may follow): the song is opened and its first chunk
   * read and decoded, nothing scheduled; kept for a while, or until another song is pressed. `wake`
   * (a real press, not a rest of the pointer): a suspended context is resumed for the play to come.
   */
  press(url: string, wake?: boolean): void
  /** The equaliser's settings changed: heard at once, the music goes on. */
  setEqualiser(settings: EqualiserSettings | undefined): void
  /** Plays on another device ('' = the system default), the music going on. */
  setSink(sinkId: string): Promise<SinkResult>
  /** Opens the device ahead of the first play, then lets it rest (`graph.ts`: warm). */
  warm(): void
  /**
   * The sleep timer's fade: the volume reaches silence `inSeconds` from now, along a fade of `seconds`
   * (it stays silent until `cancelFadeOut`).
   */
  fadeOut(inSeconds: number, seconds: number): void
  cancelFadeOut(): void
}
