import { createWebAudioOutput } from './audio/output'
import type { OutputOptions, WebAudioOutput } from './audio/output'
import type { OutputError, OutputEvent, PlayerOutput } from './audio/player-output'
import type { SongPair } from './audio/gapless'

/**
 * The player's output: the Web Audio graph (`audio/output.ts`: gapless, fades, crossfade, speed,
 * loudness, equaliser, device) wherever Web Audio exists; a plain `<audio>` element elsewhere. Either
 * carries its clock on a hidden element with `data-testid="player-audio"` for end-to-end tests.
 */
export function createPlayerOutput(options: OutputOptions = {}): PlayerOutput {
  if (typeof AudioContext !== 'undefined') return createWebAudioOutput(options)
  const audio = document.createElement('audio')
  audio.preload = 'auto'
  // Speed keeps the pitch, as the Web Audio output's does (the element's default, said outright).
  audio.preservesPitch = true
  audio.dataset.testid = 'player-audio'
  audio.hidden = true
  document.body.appendChild(audio)
  return elementOutput(audio)
}

/** A plain `<audio>` element as the typed output. */
function elementOutput(audio: HTMLAudioElement): PlayerOutput {
  return {
    get src() {
      return audio.getAttribute('src') ? audio.src : ''
    },
    get position() {
      return audio.currentTime
    },
    get duration() {
      return audio.duration
    },
    get paused() {
      return audio.paused
    },
    get volume() {
      return audio.volume
    },
    get muted() {
      return audio.muted
    },
    get speed() {
      return audio.playbackRate
    },
    get error(): OutputError | null {
      return audio.error ? { code: audio.error.code, message: audio.error.message } : null
    },
    load(url) {
      if (url) audio.src = url
      else audio.removeAttribute('src')
      audio.load()
    },
    play: () => audio.play(),
    pause: () => audio.pause(),
    seek(seconds) {
      audio.currentTime = seconds
    },
    setVolume(value) {
      audio.volume = value
    },
    setMuted(value) {
      audio.muted = value
    },
    setSpeed(value) {
      // `load()` falls back to the default rate: both.
      audio.defaultPlaybackRate = value
      audio.playbackRate = value
    },
    on(event: OutputEvent, listener: () => void) {
      audio.addEventListener(event, () => listener())
    },
  }
}

/**
 * An output that can start the following song on the current one's last frame, or crossfade into it
 * (the Web Audio output).
 */
type GaplessOutput = PlayerOutput & { prepare(url: string | undefined, songs?: SongPair): void }
export const isGapless = (output: PlayerOutput | undefined): output is GaplessOutput =>
  typeof (output as Partial<GaplessOutput> | undefined)?.prepare === 'function'

/** An output that can open its device ahead of the first play (the Web Audio output). */
export const canWarm = (output: PlayerOutput | undefined): output is PlayerOutput & { warm(): void } =>
  typeof (output as { warm?: unknown } | undefined)?.warm === 'function'

/** An output with the sound controls: equaliser and output device (the Web Audio output). */
export type SoundOutput = PlayerOutput & Pick<WebAudioOutput, 'setEqualiser' | 'setSink'>
export const hasSoundControls = (output: PlayerOutput | undefined): output is SoundOutput =>
  typeof (output as Partial<SoundOutput> | undefined)?.setEqualiser === 'function' &&
  typeof (output as Partial<SoundOutput> | undefined)?.setSink === 'function'
