import type { PlayerAudio } from './player-audio'
import { createElementFace, createFace } from './facade'
import { planFade } from './fades'
import { createGainStage } from './gain-stage'
import { PREPARE_AHEAD_SECONDS, shouldPrepareNext } from './gapless'
import { createOutputGraph } from './graph'
import type { GraphOptions } from './graph'
import { createLoad, MediaFailure } from './media-load'
import { Track } from './track'
import type { LoudnessTarget } from '@shared/audio/gain'
import type { EqualiserSettings } from './equaliser'
import type { SinkResult } from './sink'

/**
 * The Web Audio output: what the engine drives in place of an `<audio>` element (same members, same
 * events), so the engine's decisions (resolving, skipping, recovery, sessions) stay as they were.
 *
 * - Songs are streamed from main's media scheme with `fetch` + Range in chunks, decoded here (WAV) and
 *   resampled to the context's rate with the phase carried across chunks; each chunk is an
 *   AudioBufferSourceNode started at its exact frame on the audio clock. At most `AHEAD_SECONDS` are
 *   decoded ahead of the playhead; played chunks are let go.
 * - Gapless: `prepare(url)` names the song that follows; near the end it is opened and its first frame
 *   scheduled on the frame where the current song's last one ends. When the engine then sets `src` to
 *   it, it is adopted, already playing.
 * - Loudness: each song's gain node plays it toward −14 LUFS from its measured EBU R128 loudness
 *   (`loudness.ts`: measured once in a worker, stored per source and song); an unmeasured song starts at
 *   a safe gain and is ramped once measured. The chain ends in a limiter.
 * - Equaliser and output device: settings read when the graph is made, then applied as they change
 *   (`setEqualiser`, `setSink`) without stopping the music.
 * - Pause, resume, seek and stop fade the transport gain over 12 ms on the audio clock; a pause stops
 *   the song at the fade's end (and suspends the context once the fade has been heard), play starts it
 *   again there under a fade in, as a seek does.
 * - A file that is not WAV is fetched whole and decoded by `decodeAudioData` (held whole: see
 *   docs/playback.md).
 *
 * Its parts: `track.ts` (one song fetched, decoded and scheduled on the audio clock), `media-load.ts`
 * (ranged fetches of the media scheme), `graph.ts` (context, transport fades, volume, limiter, with
 * `equaliser-stage.ts` and `sink.ts`),
 * `gain-stage.ts` (loudness gain) and `facade.ts` (the element-like members, events, hidden element).
 */

export interface OutputOptions extends GraphOptions {
  /** Fetches a range of a media address (default: `fetch`, which Electron allows on the privileged scheme). */
  fetch?: typeof fetch
  /** The loudness target (default −14 LUFS). */
  loudnessTarget?: () => LoudnessTarget
}

/** How far ahead of "now" a new start is scheduled: room for the graph to pick it up. */
const START_LEAD_SECONDS = 0.01
const TICK_MS = 250
/** How long a song that started on the previous one's last frame waits for the engine to take it. */
const ADOPT_GRACE_MS = 5000

export type WebAudioOutput = PlayerAudio & {
  /** The song that follows the current one when it ends: opened ahead and started on its last frame. */
  prepare(url: string | undefined): void
  readonly context: AudioContext
  /** The equaliser's settings changed: heard at once, the music goes on. */
  setEqualiser(settings: EqualiserSettings | undefined): void
  /** Plays on another device ('' = the system default), the music going on. */
  setSink(sinkId: string): Promise<SinkResult>
}

/** The Web Audio output, with a hidden element carrying its clock for end-to-end tests (`player-audio`). */
export function createWebAudioOutput(options: OutputOptions = {}): WebAudioOutput {
  const load = createLoad(options)
  const face = createFace()
  const { underrun, emit } = face
  const nodes = createOutputGraph(options)
  const { graph, applyFade } = nodes
  const applyLoudness = createGainStage(options, load, () => nodes.context)

  let current: Track | undefined
  let prepared: Track | undefined
  let nextUrl: string | undefined
  let src = ''
  let paused = true
  let ended = false
  /** Where a paused or unstarted song will start (s). */
  let pendingPosition = 0
  let error: MediaError | null = null
  let volume = 1
  let muted = false
  let generation = 0
  let ticker: ReturnType<typeof setInterval> | undefined

  const now = () => graph().currentTime
  /** The next frame boundary at least `lead` from now. */
  const frameAfter = (lead: number) => {
    const rate = graph().sampleRate
    return Math.ceil((now() + lead) * rate) / rate
  }

  function applyVolume() {
    nodes.applyVolume(muted ? 0 : volume * volume)
  }

  function fail(track: Track, failure: unknown) {
    // One error per song, as an element reports one (its open, play and seek may all see the failure).
    if (track !== current || track.disposed || track.failed) return
    track.failed = true
    const code = failure instanceof MediaFailure ? failure.code : 2
    error = { code, message: String((failure as Error)?.message ?? failure) } as MediaError
    paused = true
    stopTicker()
    emit('error')
  }

  function startTicker() {
    if (ticker) return
    ticker = setInterval(tick, TICK_MS)
  }
  function stopTicker() {
    clearInterval(ticker)
    ticker = undefined
  }

  function tick() {
    const track = current
    if (!track || paused) return
    void track.pump()
    emit('timeupdate')
    const clock = now()
    const remaining = (track.endTime ?? Number.POSITIVE_INFINITY) - clock
    if (
      nextUrl &&
      shouldPrepareNext(
        Number.isFinite(track.duration) ? track.duration - track.position(clock) : Infinity,
        !!prepared,
      )
    ) {
      if (track.endTime !== undefined || track.duration - track.position(clock) <= PREPARE_AHEAD_SECONDS)
        prepareNext(track)
    }
    if (track.endTime !== undefined && remaining <= 0) finish(track)
  }

  function prepareNext(track: Track) {
    if (!nextUrl || prepared || track.endTime === undefined) return
    const next = new Track(nextUrl, graph(), nodes.transport, load, underrun)
    prepared = next
    const at = track.endTime
    next.opened.then(
      () => applyLoudness(next),
      () => undefined,
    )
    next
      .startAt(0, at, () => at)
      .catch(() => {
        if (prepared === next) prepared = undefined
        next.dispose(now())
      })
  }

  function finish(track: Track) {
    if (track !== current || ended) return
    ended = true
    paused = true
    pendingPosition = track.duration
    emit('timeupdate')
    emit('pause')
    emit('ended')
    // The prepared song plays on; if the engine does not adopt it (it may first have to resolve the song
    // again, over IPC), it is stopped after a grace long enough for that.
    const next = prepared
    if (next) {
      setTimeout(() => {
        if (prepared === next && current !== next) {
          prepared = undefined
          next.dispose(now())
        }
      }, ADOPT_GRACE_MS)
    } else {
      stopTicker()
    }
  }

  function setSource(url: string) {
    generation++
    error = null
    ended = false
    pendingPosition = 0
    const old = current
    if (prepared && prepared.url === url && old && old.endTime !== undefined && now() >= old.endTime - 0.05) {
      // Gapless: the prepared song already started on the previous one's last frame.
      current = prepared
      prepared = undefined
      old.dispose(now())
      src = url
      paused = false
      // As an element does for a new source (the song is already playing).
      emit('durationchange')
      emit('loadedmetadata')
      emit('canplay')
      emit('play')
      emit('playing')
      startTicker()
      return
    }
    if (old) {
      const plan = planFade('stop', now())
      if (!paused) applyFade(plan)
      old.dispose(plan.cutAt ?? now())
    }
    if (prepared) {
      prepared.dispose(now())
      prepared = undefined
    }
    paused = true
    stopTicker()
    src = url
    if (!url) {
      current = undefined
      return
    }
    const track = new Track(url, graph(), nodes.transport, load, underrun)
    current = track
    const mine = generation
    track.opened.then(
      () => {
        applyLoudness(track)
        if (mine !== generation) return
        emit('durationchange')
        emit('loadedmetadata')
        emit('canplay')
      },
      (failure) => fail(track, failure),
    )
  }

  async function play(): Promise<void> {
    const track = current
    if (!track) throw new DOMException('The element has no supported sources.', 'NotSupportedError')
    if (error) throw new DOMException(error.message, 'NotSupportedError')
    nodes.cancelSuspend()
    if (!paused) return
    const mine = generation
    const context = graph()
    if (ended) {
      // As an element does: play after the end starts again from the beginning.
      ended = false
      pendingPosition = 0
      track.needsStart = true
    }
    paused = false
    emit('play')
    if (context.state !== 'running') await context.resume()
    if (mine !== generation || paused) return
    if (track.needsStart) {
      let at: number | undefined
      try {
        at = await track.startAt(pendingPosition, now(), () => frameAfter(START_LEAD_SECONDS))
      } catch (failure) {
        fail(track, failure)
        return
      }
      if (at === undefined || mine !== generation || paused) return
      applyFade(planFade('start', Math.max(now(), at)))
    } else {
      applyFade(planFade('resume', now()))
    }
    startTicker()
    emit('playing')
  }

  function pause() {
    if (paused) return
    paused = true
    const track = current
    const plan = planFade('pause', now())
    applyFade(plan)
    // The song stops where the fade ends and starts again from there on play. The context is suspended
    // only once the fade has left the output's buffer (`graph.ts`: suspendWhenDrained).
    if (track) {
      pendingPosition = track.position(now())
      track.stopChunks(plan.cutAt!)
      track.needsStart = true
    }
    if (prepared) {
      prepared.dispose(now())
      prepared = undefined
    }
    stopTicker()
    emit('timeupdate')
    emit('pause')
    nodes.suspendWhenDrained(() => paused)
  }

  function seek(seconds: number) {
    const track = current
    const duration = track?.duration ?? Number.NaN
    const target = Math.max(0, Number.isFinite(duration) ? Math.min(seconds, duration) : seconds)
    pendingPosition = target
    ended = false
    if (prepared) {
      prepared.dispose(now())
      prepared = undefined
    }
    if (!track) return
    if (paused) {
      track.stopChunks(now())
      track.needsStart = true
      queueMicrotask(() => emit('seeked'))
      return
    }
    const mine = generation
    const plan = planFade('seek', now())
    applyFade(plan)
    emit('seeking')
    const cut = plan.cutAt!
    track
      .startAt(target, cut, () => Math.max(cut, frameAfter(START_LEAD_SECONDS)))
      .then((at) => {
        if (at === undefined || mine !== generation || paused) return
        applyFade(planFade('resume', Math.max(now(), at)))
        emit('seeked')
        emit('timeupdate')
      })
      .catch((failure) => fail(track, failure))
  }

  function prepare(url: string | undefined) {
    nextUrl = url
    if (prepared && prepared.url !== url) {
      prepared.dispose(now())
      prepared = undefined
    }
  }

  const output = createElementFace(face, {
    src: () => src,
    setSource,
    currentTime: () => {
      const track = current
      const context = nodes.context
      if (!track || paused || !context) return pendingPosition
      return track.position(context.currentTime)
    },
    seek,
    duration: () => current?.duration ?? Number.NaN,
    paused: () => paused,
    volume: () => volume,
    setVolume: (value) => {
      volume = value
      applyVolume()
    },
    muted: () => muted,
    setMuted: (value) => {
      muted = value
      applyVolume()
    },
    readyState: () => (current && Number.isFinite(current.duration) ? 4 : 0),
    error: () => error,
    context: graph,
    play,
    pause,
    prepare,
    setEqualiser: nodes.applyEqualiser,
    setSink: nodes.applySink,
  })
  // The device the context really plays on, for end-to-end tests (the element's own `sinkId` is unused).
  Object.defineProperty(face.face, 'sinkId', {
    get: () => (nodes.context as { sinkId?: unknown } | undefined)?.sinkId ?? '',
  })
  return output as unknown as WebAudioOutput
}
