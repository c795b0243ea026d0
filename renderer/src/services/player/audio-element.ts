import { createWebAudioOutput } from './audio/output'
import type { OutputOptions, WebAudioOutput } from './audio/output'
import type { PlayerAudio } from './audio/player-audio'
import type { SongPair } from './audio/gapless'

/**
 * The real element, mounted hidden in the document with `data-testid="player-audio"` so end-to-end tests
 * can read its clock (`currentTime`) the way a person hears it.
 */
export function createAudioElement(options: OutputOptions = {}): PlayerAudio {
  // The Web Audio output (gapless, fades) wherever Web Audio exists; the plain element elsewhere.
  if (typeof AudioContext !== 'undefined') return createWebAudioOutput(options)
  const audio = document.createElement('audio')
  audio.preload = 'auto'
  // Speed keeps the pitch, as the Web Audio output's does (the element's default, said outright).
  audio.preservesPitch = true
  audio.dataset.testid = 'player-audio'
  audio.hidden = true
  document.body.appendChild(audio)
  return audio
}

/**
 * An output that can start the following song on the current one's last frame, or crossfade into it
 * (the Web Audio output).
 */
type GaplessOutput = PlayerAudio & { prepare(url: string | undefined, songs?: SongPair): void }
export const isGapless = (audio: PlayerAudio | undefined): audio is GaplessOutput =>
  typeof (audio as Partial<GaplessOutput> | undefined)?.prepare === 'function'

/** An output that can open its device ahead of the first play (the Web Audio output). */
export const canWarm = (audio: PlayerAudio | undefined): audio is PlayerAudio & { warm(): void } =>
  typeof (audio as { warm?: unknown } | undefined)?.warm === 'function'

/** An output with the sound controls: equaliser and output device (the Web Audio output). */
export type SoundOutput = PlayerAudio & Pick<WebAudioOutput, 'setEqualiser' | 'setSink'>
export const hasSoundControls = (audio: PlayerAudio | undefined): audio is SoundOutput =>
  typeof (audio as Partial<SoundOutput> | undefined)?.setEqualiser === 'function' &&
  typeof (audio as Partial<SoundOutput> | undefined)?.setSink === 'function'
