import type { EqualiserSettings } from './equaliser'
import type { SinkResult } from './sink'

/**
 * The Web Audio output's face (`output.ts`): the typed output the engine drives (`player-output.ts`)
 * over the output's own state, and a hidden element carrying its clock and firing its events for
 * end-to-end tests (`data-testid="player-audio"`).
 */

import type { SongPair } from './gapless'
import type { OutputError, OutputEvent } from './player-output'

type Listener = () => void

/** The hidden element and the output's events (fired to the listeners and on the hidden element). */
export function createFace() {
  const face = document.createElement('audio')
  face.hidden = true
  face.dataset.testid = 'player-audio'
  document.body.appendChild(face)

  /**
   * Underruns so far, on the hidden element for the sound bench (`data-underruns`), and where each fell
   * (`data-late-chunks`: how late, how far into its rendering, and the wall time, `ms@s@epoch-ms`; the
   * last 50).
   */
  let underruns = 0
  const late: string[] = []
  const underrun = (where?: string) => {
    face.dataset.underruns = String(++underruns)
    if (!where) return
    late.push(where)
    if (late.length > 50) late.shift()
    face.dataset.lateChunks = late.join(' ')
  }
  /** Starts scheduled again because a render passed them (`Renderings.scheduleChunk`): `data-late-starts`. */
  let lateStarts = 0
  const lateStart = () => void (face.dataset.lateStarts = String(++lateStarts))

  const listeners = new Map<string, Set<Listener>>()
  const emit = (type: OutputEvent) => {
    for (const listener of [...(listeners.get(type) ?? [])]) listener()
    // The hidden element fires them too, for tests and benches that listen there.
    face.dispatchEvent(new Event(type))
  }
  return { face, underrun, lateStart, emit, listeners }
}

export type Face = ReturnType<typeof createFace>

/** What the face reads and drives: the output's state and commands. */
export interface FaceControls {
  src(): string
  setSource(url: string): void
  currentTime(): number
  seek(seconds: number): void
  duration(): number
  paused(): boolean
  volume(): number
  setVolume(value: number): void
  muted(): boolean
  setMuted(value: boolean): void
  readyState(): number
  error(): OutputError | null
  context(): AudioContext
  play(): Promise<void>
  pause(): void
  prepare(url: string | undefined, songs?: SongPair): void
  press(url: string, wake?: boolean): void
  setEqualiser(settings: EqualiserSettings | undefined): void
  setSink(sinkId: string): Promise<SinkResult>
  warm(): void
  fadeOut(inSeconds: number, seconds: number): void
  cancelFadeOut(): void
  speed(): number
  setSpeed(value: number): void
}

/** The typed output (`player-output.ts`) over the output's state and commands, and the hidden element. */
export function createOutputFace({ face, listeners }: Face, controls: FaceControls) {
  const output = {
    get src() {
      return controls.src()
    },
    get position() {
      return controls.currentTime()
    },
    get duration() {
      return controls.duration()
    },
    get paused() {
      return controls.paused()
    },
    get volume() {
      return controls.volume()
    },
    get muted() {
      return controls.muted()
    },
    get error() {
      return controls.error()
    },
    get context() {
      return controls.context()
    },
    get speed() {
      return controls.speed()
    },
    load: controls.setSource,
    seek: controls.seek,
    setVolume: controls.setVolume,
    setMuted: controls.setMuted,
    setSpeed: controls.setSpeed,
    play: controls.play,
    pause: controls.pause,
    on(type: OutputEvent, listener: () => void) {
      const set = listeners.get(type) ?? new Set()
      listeners.set(type, set)
      set.add(listener)
    },
    prepare: controls.prepare,
    press: controls.press,
    setEqualiser: controls.setEqualiser,
    setSink: controls.setSink,
    warm: controls.warm,
    fadeOut: controls.fadeOut,
    cancelFadeOut: controls.cancelFadeOut,
  }
  // The hidden element shows the output's clock to end-to-end tests.
  Object.defineProperties(face, {
    currentTime: { get: () => output.position },
    paused: { get: () => output.paused },
    src: { get: () => output.src },
    duration: { get: () => output.duration },
    playbackRate: { get: () => output.speed },
  })
  return output
}
