/**
 * What the playback engine drives: the player's output, typed (the Web Audio output, `output.ts`; the
 * plain `<audio>` element where there is no Web Audio, `player-output.ts` in `services/player`; a fake
 * in the component tests). Positions are song seconds.
 */

/** What the output tells its listeners, named as an element's events are. */
export type OutputEvent =
  | 'play'
  | 'playing'
  | 'pause'
  | 'seeking'
  | 'seeked'
  | 'timeupdate'
  | 'durationchange'
  | 'loadedmetadata'
  | 'canplay'
  | 'ended'
  | 'error'
  | 'ratechange'

/** Why the song failed: `code` as a MediaError's (2 network, 3 decode, 4 not supported). */
export interface OutputError {
  readonly code: number
  readonly message: string
  /** Its source stopped answering while it played: it played as far as its audio came. */
  readonly cutShort?: boolean
}

export interface PlayerOutput {
  /** The address of the song loaded ('' when none). */
  readonly src: string
  /** Where the song is (s): the audio clock while it plays, else where it will start. */
  readonly position: number
  /** The song's length (s), NaN until known. */
  readonly duration: number
  readonly paused: boolean
  readonly volume: number
  readonly muted: boolean
  /** Playback speed, 0.5–2×, the pitch kept. */
  readonly speed: number
  readonly error: OutputError | null
  /** Loads the song at `url` ('' unloads), paused at its start. */
  load(url: string): void
  play(): Promise<void>
  pause(): void
  /** Moves to `seconds`; `seeked` says when it is heard. */
  seek(seconds: number): void
  setVolume(value: number): void
  setMuted(value: boolean): void
  setSpeed(value: number): void
  on(event: OutputEvent, listener: () => void): void
}
