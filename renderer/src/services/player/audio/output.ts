import { createFace, createOutputFace } from './facade'
import { planFade } from './fades'
import { createGainStage } from './gain-stage'
import type { SongPair } from './gapless'
import { createOutputGraph } from './graph'
import { createLoad, MediaFailure } from './media-load'
import { warmChunkWorker } from './chunk-client'
import { createNextSong } from './next-song'
import { createPressedSong } from './pressed-song'
import { frameAfter } from './renderings'
import { START_LEAD_SECONDS } from './first-chunk'
import { Track } from './track'
import { createTicker, TICK_SECONDS, untilNextSecond } from './ticker'
import { clampSpeed } from '@shared/settings'
import type { OutputOptions, WebAudioOutput } from './output-types'
import type { OutputError } from './player-output'

export type { OutputOptions, WebAudioOutput } from './output-types'

/**
 * The Web Audio output: what the engine drives (the typed output of `player-output.ts`: load, play,
 * pause, seek, volume, speed, and events named as an element's), so the engine's decisions
 * (resolving, skipping, recovery, sessions) do not depend on the output.
 *
 * - Songs are streamed from main's media scheme with `fetch` + Range in chunks, decoded here (WAV; FLAC,
 *   MP3 and AAC in MP4 by WebCodecs, `codec-source.ts`) and resampled to the context's rate with the
 *   phase carried across chunks; each chunk is an AudioBufferSourceNode started at its exact frame on the
 *   audio clock. At most `AHEAD_SECONDS` are decoded ahead of the playhead; played chunks are let go.
 * - A click heard at once: `press(url)` (a song's row pressed, its play 100–300 ms away) opens the song
 *   and reads and decodes its first chunk (`pressed-song.ts`); the play then schedules it in its own
 *   task (no await: a running context is not resumed again). The chunk worker is started and its
 *   decoder warmed while the app is idle (`warm`, `chunk-warm.ts`), so the first press pays neither.
 * - Gapless: `prepare(url, songs)` names the song that follows; near the end it is opened and its first
 *   frame scheduled on the frame where the current song's last one ends. When the engine then sets `src`
 *   to it, it is adopted, already playing.
 * - Crossfade (`crossfadeSeconds`, off by default): the next song starts that long before the current
 *   one ends instead (`crossfade.ts`: never between consecutive tracks of one album, at most half of
 *   either song), with equal-power fades on each song's own fade gain. The output says `ended` when the
 *   next song comes in, so the engine moves on then; the song before plays out under its fade.
 * - Speed (`playbackRate`, 0.5–2×): time-stretched with the pitch kept (`stretch.ts`), `currentTime` in
 *   song seconds; a change is heard 0.2 s later, rendered again from there and crossfaded in over 30 ms.
 * - Loudness: each song's gain toward −14 LUFS from its EBU R128 loudness (`loudness.ts`, measured once
 *   in a worker, stored); unmeasured, a safe gain ramped once measured. The chain ends in a limiter.
 * - Equaliser and output device: applied as they change (`setEqualiser`, `setSink`), the music on.
 * - Pause, resume and stop fade the transport gain over 12 ms; a pause stops the song at the fade's end
 *   (the context suspended once it has been heard), play starts it there under a fade in. A seek while
 *   playing plays the old position on until the new one's first chunk is scheduled, then crosses over
 *   12 ms on the song's own gains (`Track.seekTo`; the transport in a crossfade or a start on its way).
 * - Another format (Ogg Vorbis, Opus, HE-AAC), or a file WebCodecs refuses or cannot stream, is fetched
 *   whole and decoded by `decodeAudioData` (docs/playback.md), then scheduled in chunks like the rest.
 *
 * Its parts: `track.ts` (one song read, stretched and scheduled on the audio clock, with
 * `pcm-source.ts`, `stretch.ts` and `clock-map.ts`), `next-song.ts` (the following song: gapless or
 * crossfaded, and the one playing out), `media-load.ts` (ranged fetches of the media scheme), `graph.ts`
 * (context, transport fades, volume, limiter, with `equaliser-stage.ts` and `sink.ts`), `gain-stage.ts`
 * (loudness gain) and `facade.ts` (the typed output's members and events, hidden element).
 */

/** A speed change is heard this long after it is asked: time to render the song again from there. */
const SPEED_LEAD_SECONDS = 0.2

/** The Web Audio output, with a hidden element carrying its clock for end-to-end tests (`player-audio`). */
export function createWebAudioOutput(options: OutputOptions = {}): WebAudioOutput {
  const load = createLoad(options)
  const face = createFace()
  const { underrun, lateStart, emit } = face
  const nodes = createOutputGraph(options)
  const { graph, applyFade } = nodes
  const applyLoudness = createGainStage(options, load, () => nodes.context)

  let current: Track | undefined
  let speed = 1
  let src = ''
  let paused = true
  let ended = false
  /** Where a paused or unstarted song will start (s). */
  let pendingPosition = 0
  let error: OutputError | null = null
  let volume = 1
  let muted = false
  let generation = 0
  let shownSecond = -1
  const ticker = createTicker(() => tick())

  const now = () => graph().currentTime
  const newTrack = (url: string) => {
    const track = new Track(url, graph(), nodes.transport, load, underrun, speed)
    track.onFailure = (failure) => fail(track, failure)
    track.onLateStart = lateStart
    return track
  }
  const next = createNextSong({
    context: graph,
    newTrack,
    applyLoudness,
    crossfadeSeconds: () => options.crossfadeSeconds?.() ?? 0,
    playing: () => (paused || ended ? undefined : current),
    face: face.face,
  })
  const pressed = createPressedSong({ newTrack, now, face: face.face })

  /** The sleep timer's fade out, on the audio clock: silent at `endsAt` (`graph.ts`: fadeVolumeOut). */
  let sleepFade: { endsAt: number; seconds: number } | undefined
  function applyVolume() {
    const level = muted ? 0 : volume * volume
    if (sleepFade) nodes.fadeVolumeOut(level, sleepFade.endsAt, sleepFade.seconds)
    else nodes.applyVolume(level)
  }

  function fail(track: Track, failure: unknown, cutShort = false) {
    // One error per song, as an element reports one (its open, play and seek may all see the failure).
    if (track !== current || track.disposed || track.failed) return
    track.failed = true
    const code = failure instanceof MediaFailure ? failure.code : 2
    const message = String((failure as Error)?.message ?? failure)
    error = { code, message, cutShort }
    paused = true
    ticker.stop()
    emit('error')
  }

  function tick() {
    const track = current
    if (!track || paused) return
    void track.pump()
    // The position shown moves once a second, the tick coming as the song's next whole second begins
    // (each move re-renders the bar, the time and what follows them); lyrics keep their own clock
    // (`timed-index.ts`). Sooner for the handover, the end of what arrived or of a song crossfaded out.
    const position = track.clockKnown ? track.position(now()) : -1
    const second = Math.floor(position)
    if (second !== shownSecond) {
      shownSecond = second
      emit('timeupdate')
    }
    const wait = position < 0 ? TICK_SECONDS : untilNextSecond(position, track.speed)
    if (track.cutShort !== undefined) {
      // Its source stopped answering: what arrived plays to its end, then the song fails there (no
      // following song starts: the engine decides what comes next).
      next.stop()
      const end = track.endTime ?? Number.POSITIVE_INFINITY
      if (now() < end) return ticker.start(Math.min(wait, end - now()))
      pendingPosition = track.position(end)
      emit('timeupdate')
      return fail(track, track.cutShort, true)
    }
    const handover = next.tick(track) ?? Number.POSITIVE_INFINITY
    if (now() >= handover) finish(track)
    else ticker.start(Math.min(wait, handover - now(), next.due - now()))
  }

  function finish(track: Track) {
    if (track !== current || ended) return
    ended = true
    paused = true
    pendingPosition = track.duration
    // The prepared song plays on; if the engine does not adopt it (it may first have to resolve the song
    // again, over IPC), it is stopped after a grace long enough for that.
    if (!next.awaitAdoption()) ticker.stop()
    emit('timeupdate')
    emit('pause')
    emit('ended')
  }

  function setSource(url: string) {
    generation++
    error = null
    ended = false
    pendingPosition = 0
    const old = current
    const adopted = old && next.adopt(url, old)
    if (adopted) {
      // The prepared song already started: on the previous one's last frame, or under a crossfade.
      current = adopted
      if (adopted.speed !== speed)
        adopted.changeSpeed(speed, SPEED_LEAD_SECONDS).catch((failure) => fail(adopted, failure))
      src = url
      paused = false
      // As an element does for a new source (the song is already playing).
      emit('durationchange')
      emit('loadedmetadata')
      emit('canplay')
      emit('play')
      emit('playing')
      ticker.start()
      return
    }
    if (old) {
      if (!paused) applyFade(planFade('stop', now()))
      // Its own fade too: after a crossfade's `ended` it is still heard, though the output is paused.
      old.cut(now())
    }
    next.stop()
    paused = true
    ticker.stop()
    src = url
    if (!url) return void (current = undefined)
    // A pressed song's first chunk is ready: its play only schedules it.
    const track = pressed.take(url) ?? newTrack(url)
    track.speed = speed
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
      // Faded in as the first chunk is scheduled (a pressed song's in this task), again if a render passed it.
      let at: number | undefined, faded: number | undefined
      try {
        at = await track.startAt(pendingPosition, now(), () => {
          const first = frameAfter(context, START_LEAD_SECONDS)
          if (faded === undefined) applyFade(planFade('start', (faded = first)))
          return first
        })
      } catch (failure) {
        fail(track, failure)
        return
      }
      if (at === undefined || mine !== generation || paused) return
      if (at !== faded) applyFade(planFade('start', Math.max(now(), at)))
    } else {
      applyFade(planFade('resume', now()))
    }
    ticker.start()
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
      // A song paused before its first chunk was scheduled stays where it was to start.
      if (track.clockKnown) pendingPosition = track.position(now())
      track.stopChunks(plan.cutAt!)
      track.needsStart = true
      // A crossfade cut short: the song plays on at full level.
      track.fader.settle(plan.cutAt!)
    }
    next.stop()
    ticker.stop()
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
    next.stop()
    if (!track) return
    if (paused) {
      track.fader.settle(now())
      track.stopChunks(now())
      track.needsStart = true
      queueMicrotask(() => emit('seeked'))
      return
    }
    const mine = generation
    emit('seeking')
    const landed = (at: number | undefined) => {
      if (at === undefined || mine !== generation || paused) return
      // Back to full level from the new start (a no-op unless an earlier seek or a pause faded it out).
      applyFade(planFade('resume', Math.max(now(), at)))
      emit('seeked')
      emit('timeupdate')
    }
    if (track.canSeekAcross(now())) {
      // The old position plays on until the new one is here, then the two cross over 12 ms.
      track
        .seekTo(target)
        .then(landed)
        .catch((failure) => fail(track, failure))
      return
    }
    // A start on its way or a song crossfade moving: the transport fades out, then the new position in.
    const plan = planFade('seek', now())
    applyFade(plan)
    const cut = plan.cutAt!
    track.fader.settle(cut)
    track
      .startAt(target, cut, () => Math.max(cut, frameAfter(graph(), START_LEAD_SECONDS)))
      .then(landed)
      .catch((failure) => fail(track, failure))
  }

  function setSpeed(value: number) {
    const wanted = clampSpeed(value)
    if (wanted === speed) return
    speed = wanted
    // A following song planned at the old speed is planned again once the new end is known.
    next.replan()
    emit('ratechange')
    const track = current
    if (!track || track.disposed || ended) return
    track.changeSpeed(speed, SPEED_LEAD_SECONDS).catch((failure) => fail(track, failure))
  }

  const output = createOutputFace(face, {
    src: () => src,
    setSource,
    currentTime: () => {
      const track = current
      const context = nodes.context
      // Until a new song's first chunk is scheduled, it is where it will start (not the context's time).
      if (!track || paused || !context || !track.clockKnown) return pendingPosition
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
    prepare: (url: string | undefined, songs?: SongPair) => next.name(url, songs),
    press: (url: string, wake?: boolean) => {
      // Not the song loaded (a double-click's second press may come after its play began).
      if (url !== src) pressed.press(url)
      if (wake && paused) nodes.wake(() => paused)
    },
    speed: () => speed,
    setSpeed,
    setEqualiser: nodes.applyEqualiser,
    setSink: nodes.applySink,
    warm: () => {
      nodes.warm(() => paused)
      // The chunk worker's start and first decode paid now, not at a song's first press
      // (`data-chunks-warm`: the frames its warm-up read, for tests).
      void warmChunkWorker(nodes.context!.sampleRate).then((frames) => {
        face.face.dataset.chunksWarm = String(frames)
      })
    },
    fadeOut: (inSeconds: number, seconds: number) => {
      sleepFade = { endsAt: now() + inSeconds, seconds }
      applyVolume()
    },
    cancelFadeOut: () => {
      if (!sleepFade) return
      sleepFade = undefined
      nodes.endVolumeFade(muted ? 0 : volume * volume)
    },
  })
  // The volume gain as it is now (the sleep timer's fade), for end-to-end tests.
  Object.defineProperty(face.face, 'volumeLevel', { get: () => nodes.volumeLevel })
  // The device the context really plays on, for end-to-end tests (the element's own `sinkId` is unused).
  Object.defineProperty(face.face, 'sinkId', {
    get: () => (nodes.context as { sinkId?: unknown } | undefined)?.sinkId ?? '',
  })
  return output satisfies WebAudioOutput
}
