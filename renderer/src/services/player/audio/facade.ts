import type { EqualiserSettings } from './equaliser'
import type { SinkResult } from './sink'

/**
 * The Web Audio output's element-like face (`output.ts`): the members and events of an `<audio>`
 * element the engine uses, over the output's own state, and a hidden element carrying its clock for
 * end-to-end tests (`data-testid="player-audio"`).
 */

import type { SongPair } from './gapless'

type Listener = (event: Event) => void

/** The hidden element and the output's events (fired to the listeners and on the hidden element). */
export function createFace() {
  const face = document.createElement('audio')
  face.hidden = true
  face.dataset.testid = 'player-audio'
  document.body.appendChild(face)

  /** Underruns so far, on the hidden element for the sound bench (`data-underruns`). */
  let underruns = 0
  const underrun = () => void (face.dataset.underruns = String(++underruns))
  /** Starts scheduled again because a render passed them (`Track.scheduleChunk`): `data-late-starts`. */
  let lateStarts = 0
  const lateStart = () => void (face.dataset.lateStarts = String(++lateStarts))

  const listeners = new Map<string, Set<Listener>>()
  const emit = (type: string) => {
    const event = new Event(type)
    for (const listener of [...(listeners.get(type) ?? [])]) listener(event)
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
  error(): MediaError | null
  context(): AudioContext
  play(): Promise<void>
  pause(): void
  prepare(url: string | undefined, songs?: SongPair): void
  setEqualiser(settings: EqualiserSettings | undefined): void
  setSink(sinkId: string): Promise<SinkResult>
  warm(): void
  fadeOut(inSeconds: number, seconds: number): void
  cancelFadeOut(): void
  speed(): number
  setSpeed(value: number): void
}

export function createElementFace({ face, listeners }: Face, controls: FaceControls) {
  const output = {
    get src() {
      return controls.src()
    },
    set src(url: string) {
      controls.setSource(url)
    },
    get currentTime() {
      return controls.currentTime()
    },
    set currentTime(seconds: number) {
      controls.seek(seconds)
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
    set volume(value: number) {
      controls.setVolume(value)
    },
    get muted() {
      return controls.muted()
    },
    set muted(value: boolean) {
      controls.setMuted(value)
    },
    get readyState() {
      return controls.readyState()
    },
    get error() {
      return controls.error()
    },
    get context() {
      return controls.context()
    },
    /** Playback speed, the pitch kept (an element's `preservesPitch`, always on here). */
    get playbackRate() {
      return controls.speed()
    },
    set playbackRate(value: number) {
      controls.setSpeed(value)
    },
    get defaultPlaybackRate() {
      return controls.speed()
    },
    set defaultPlaybackRate(value: number) {
      controls.setSpeed(value)
    },
    play: controls.play,
    pause: controls.pause,
    load() {
      if (!controls.src()) controls.setSource('')
    },
    removeAttribute(name: string) {
      if (name === 'src') controls.setSource('')
    },
    addEventListener(type: string, listener: Listener) {
      const set = listeners.get(type) ?? new Set()
      listeners.set(type, set)
      set.add(listener)
    },
    removeEventListener(type: string, listener: Listener) {
      listeners.get(type)?.delete(listener)
    },
    prepare: controls.prepare,
    setEqualiser: controls.setEqualiser,
    setSink: controls.setSink,
    warm: controls.warm,
    fadeOut: controls.fadeOut,
    cancelFadeOut: controls.cancelFadeOut,
  }
  // The hidden element shows the output's clock to end-to-end tests.
  Object.defineProperties(face, {
    currentTime: { get: () => output.currentTime },
    paused: { get: () => output.paused },
    src: { get: () => output.src },
    duration: { get: () => output.duration },
    playbackRate: { get: () => output.playbackRate },
  })
  return output
}
