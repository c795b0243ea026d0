import { ref, shallowRef } from 'vue'
import type { Song } from '@shared/api/models'
import type { CadenceError } from '@shared/errors'
import type { QueueEntry } from '@shared/player/queue'
import { chooseBitrate } from '@shared/player/quality'
import type { Quality } from '@shared/settings'
import { toCadenceError } from '@renderer/services/cadence-error'
import { createWebAudioOutput } from './audio/output'
import type { PlayerAudio } from './audio/player-audio'
import type { OutputOptions } from './audio/output'

/**
 * The playback engine: the one `<audio>` element, its events, and resolve-and-resume. It resolves the
 * current queue entry (`player:resolve` with the chosen bitrate), plays it, fetches the next song's URL
 * ahead of time, re-resolves an expired URL and resumes at the same position, skips what cannot play and
 * stops (keeping the queue) when the data source is down. It knows nothing of views, sessions or main.
 */

/** A resolved URL older than this is resolved again before use (signed media URLs expire). */
export const URL_MAX_AGE_MS = 4 * 60_000

export type SkipCause = 'unplayable' | 'no-url' | 'load-failed' | 'error'
export type PlayerNotice =
  | { type: 'skipped'; song: string; reason?: string; cause: SkipCause }
  /** `error`, when there is one, is what the notice describes in the user's language (`errorText`). */
  | { type: 'stopped'; message: string; error?: CadenceError }
  | { type: 'failed'; message: string; error?: CadenceError }
  /** Play was pressed with nothing in the queue. */
  | { type: 'empty' }
export type PlayerStatus = 'idle' | 'loading' | 'ready' | 'error'

export type { PlayerAudio } from './audio/player-audio'

/**
 * The real element, mounted hidden in the document with `data-testid="player-audio"` so end-to-end tests
 * can read its clock (`currentTime`) the way a person hears it.
 */
export function createAudioElement(options: OutputOptions = {}): PlayerAudio {
  // The Web Audio output (gapless, fades) wherever Web Audio exists; the plain element elsewhere.
  if (typeof AudioContext !== 'undefined') return createWebAudioOutput(options)
  const audio = document.createElement('audio')
  audio.preload = 'auto'
  audio.dataset.testid = 'player-audio'
  audio.hidden = true
  document.body.appendChild(audio)
  return audio
}

/** The part of the queue the engine moves through (the queue store). */
export interface EngineQueue {
  readonly currentEntry: QueueEntry<Song> | undefined
  readonly entries: readonly unknown[]
  next(): boolean
  previous(): boolean
  advance(): 'same' | 'moved' | 'end'
  peekNext(): Song | undefined
  /** The entry `advance` would move to when the current song ends (the current one for repeat one). */
  peekAdvance?(): QueueEntry<Song> | undefined
}

/** An output that can start the following song on the current one's last frame (the Web Audio output). */
type GaplessOutput = PlayerAudio & { prepare(url: string | undefined): void }
const isGapless = (audio: PlayerAudio | undefined): audio is GaplessOutput =>
  typeof (audio as Partial<GaplessOutput> | undefined)?.prepare === 'function'

export interface PlaybackEngineDeps {
  queue: EngineQueue
  /** `player:resolve`: the song with a signed URL in `meta.url`. */
  resolve: (args: { id: Song['id']; br: number }) => Promise<Song>
  quality: () => Quality
  /** Resolves once the settings are known (the bitrate depends on them). */
  ready: () => Promise<void>
  notify: (notice: PlayerNotice) => void
  /** Makes the element (default: the real one in the document). */
  createAudio?: () => PlayerAudio
  /** State worth saving changed: `pause`d, the queue `end`ed, or the clock moved on (`tick`). */
  onProgress?: (reason: 'pause' | 'end' | 'tick') => void
}

export interface LoadOptions {
  autoplay: boolean
  positionMs?: number
  /** How many songs in a row were skipped to get here (stops when the whole queue is unplayable). */
  skipped?: number
  direction?: 1 | -1
}

interface Resolution {
  song: Song
  url?: string
  br: number
  /** When it was resolved (ms since epoch). */
  at: number
}

/** Errors that say nothing about the song itself: the data source (or main) is gone, so stop, don't skip. */
function isSourceDown(error: CadenceError): boolean {
  if (error.kind === 'api' || error.kind === 'invalid-response' || error.kind === 'invalid-argument')
    return false
  if (error.kind === 'http') return (error.status ?? 500) >= 500
  return true
}

export type PlaybackEngine = ReturnType<typeof createPlaybackEngine>

export function createPlaybackEngine(deps: PlaybackEngineDeps) {
  const q = deps.queue
  const playing = ref(false)
  const status = ref<PlayerStatus>('idle')
  const positionMs = ref(0)
  const durationMs = ref(0)
  const volume = ref(1)
  const muted = ref(false)
  const error = shallowRef<CadenceError>()
  /** The resolved song (meta with url, lyrics, isFavorite) of the current entry, once known. */
  const detail = shallowRef<Song | null>(null)
  /** Bumped whenever the clock jumps or its rate changes (seek, play, pause): for the media session. */
  const clockChanges = ref(0)

  let audio: PlayerAudio | undefined
  let generation = 0
  /** The entry whose URL is on the element. */
  let loadedKey: string | null = null
  /** Whether the user wants sound: set by play/load, cleared by pause. */
  let wantPlaying = false
  /** The current load already re-resolved once after an error. */
  let recoveryTried = false
  let startedGeneration = -1
  /** A seek not yet confirmed by `seeked`: where to resume if the URL fails meanwhile. */
  let pendingSeekMs: number | null = null

  function element(): PlayerAudio {
    if (audio) return audio
    const el = (deps.createAudio ?? createAudioElement)()
    audio = el
    el.volume = volume.value
    el.muted = muted.value
    el.addEventListener('playing', () => {
      playing.value = true
      status.value = 'ready'
      error.value = undefined
      clockChanges.value++
      if (startedGeneration !== generation) {
        startedGeneration = generation
        prefetchNext()
      }
    })
    el.addEventListener('pause', () => {
      playing.value = false
      clockChanges.value++
      deps.onProgress?.('pause')
    })
    el.addEventListener('seeked', () => {
      pendingSeekMs = null
      positionMs.value = el.currentTime * 1000
      clockChanges.value++
    })
    el.addEventListener('timeupdate', () => {
      if (status.value === 'loading') return
      positionMs.value = el.currentTime * 1000
      if (playing.value) deps.onProgress?.('tick')
    })
    el.addEventListener('durationchange', () => {
      if (Number.isFinite(el.duration) && el.duration > 0) durationMs.value = el.duration * 1000
    })
    el.addEventListener('ended', () => void onEnded())
    el.addEventListener('error', () => void onAudioError())
    return el
  }

  /** Takes the URL off the element and forgets the song's state (position is kept by the caller). */
  function unload() {
    generation++
    wantPlaying = false
    loadedKey = null
    playing.value = false
    status.value = 'idle'
    if (audio) {
      audio.pause()
      audio.removeAttribute('src')
      audio.load()
    }
  }

  /** Nothing to play: no song, no position. */
  function reset() {
    unload()
    detail.value = null
    positionMs.value = 0
    durationMs.value = 0
  }

  // ---- resolving: `player:resolve` with the chosen bitrate, cached with its age ----

  const resolutions = new Map<string, Resolution>()
  const inflight = new Map<string, Promise<Resolution>>()

  function resolveSong(song: Song, fresh = false): Promise<Resolution> {
    const id = String(song.id)
    const br = chooseBitrate(song.privilege, deps.quality())
    const known = resolutions.get(id)
    if (!fresh && known && known.br === br && Date.now() - known.at < URL_MAX_AGE_MS) {
      return Promise.resolve(known)
    }
    const pending = inflight.get(id)
    if (!fresh && pending) return pending
    const at = Date.now()
    const request = deps
      .resolve({ id: song.id, br })
      .then((resolved): Resolution => {
        const resolution = { song: resolved, url: resolved.meta?.url || undefined, br, at }
        resolutions.set(id, resolution)
        return resolution
      })
      .finally(() => {
        if (inflight.get(id) === request) inflight.delete(id)
      })
    inflight.set(id, request)
    return request
  }

  /** Resolves the song that `next` would play, so skipping is instant. */
  function prefetchNext() {
    const song = q.peekNext()
    if (song && song.privilege?.playable !== false) resolveSong(song).catch(() => undefined)
    prepareFollowing()
  }

  /** Tells a gapless output which song follows when the current one ends (none for repeat one). */
  function prepareFollowing() {
    if (!isGapless(audio)) return
    const output = audio
    const following = q.peekAdvance?.()
    const current = q.currentEntry
    if (
      !following ||
      !current ||
      following.key === current.key ||
      following.item.privilege?.playable === false
    ) {
      output.prepare(undefined)
      return
    }
    const mine = generation
    resolveSong(following.item).then(
      (resolution) => {
        if (mine === generation && q.peekAdvance?.()?.key === following.key) output.prepare(resolution.url)
      },
      () => undefined,
    )
  }

  /** After a queue edit: the next song may have changed (only worth it while playing). */
  function prefetchSoon() {
    if (playing.value) prefetchNext()
  }

  // ---- loading and starting a song ----

  /** Loads the queue's current entry; plays it with `autoplay`. */
  async function load(options: LoadOptions): Promise<void> {
    const mine = ++generation
    recoveryTried = false
    pendingSeekMs = null
    wantPlaying = options.autoplay
    const el = element()
    const entry = q.currentEntry
    if (!entry) return unload()
    const song = entry.item
    if (loadedKey !== null) el.pause()
    loadedKey = null
    status.value = 'loading'
    positionMs.value = options.positionMs ?? 0
    durationMs.value = song.duration ?? 0
    detail.value = null

    if (song.privilege?.playable === false) {
      return skip(song, { cause: 'unplayable', reason: song.privilege.reason }, options)
    }
    await deps.ready()
    let resolution: Resolution
    try {
      resolution = await resolveSong(song)
    } catch (cause) {
      if (mine !== generation) return
      const failure = toCadenceError(cause)
      if (isSourceDown(failure)) return stopWithError(failure)
      return skip(song, { cause: 'error', reason: failure.message }, options)
    }
    if (mine !== generation) return
    const resolved = resolution.song
    detail.value = resolved
    if (resolved.privilege?.playable === false) {
      return skip(song, { cause: 'unplayable', reason: resolved.privilege.reason }, options)
    }
    if (!resolution.url) return skip(song, { cause: 'no-url' }, options)
    if (resolved.duration) durationMs.value = resolved.duration
    loadedKey = entry.key
    status.value = 'ready'
    el.src = resolution.url
    // A seek while resolving moved `positionMs` on: start there.
    if (positionMs.value > 0) el.currentTime = positionMs.value / 1000
    if (wantPlaying) await start(mine)
  }

  async function start(mine: number) {
    try {
      await element().play()
    } catch (cause) {
      if (mine !== generation) return
      // AbortError: a pause or another load came first. NotSupportedError: the `error` event handles it.
      const name = (cause as { name?: string } | null)?.name
      if (name !== 'AbortError' && name !== 'NotSupportedError') {
        wantPlaying = false
        const failure = toCadenceError(cause)
        deps.notify({ type: 'failed', message: failure.message, error: failure })
      }
    }
  }

  function skip(song: Song, why: { cause: SkipCause; reason?: string }, options: LoadOptions) {
    deps.notify({ type: 'skipped', song: song.name, reason: why.reason || undefined, cause: why.cause })
    const skipped = (options.skipped ?? 0) + 1
    // Manual moves, so that repeat-one moves on too; stop once every song was tried.
    const moved = skipped < q.entries.length && (options.direction === -1 ? q.previous() : q.next())
    if (!moved) {
      unload()
      return
    }
    return load({ ...options, positionMs: 0, skipped })
  }

  function stopWithError(failure: CadenceError) {
    const at = positionMs.value
    unload()
    positionMs.value = at
    error.value = failure
    status.value = 'error'
    deps.notify({ type: 'stopped', message: failure.message, error: failure })
  }

  /** The URL failed (expired: 403; or gone): resolve once more and resume where it was; skip if that fails. */
  async function onAudioError() {
    const entry = q.currentEntry
    if (!entry || loadedKey !== entry.key) return
    const mine = generation
    const resumeAt = pendingSeekMs ?? positionMs.value
    const song = entry.item
    if (recoveryTried) {
      return skip(song, { cause: 'load-failed' }, { autoplay: wantPlaying, direction: 1 })
    }
    recoveryTried = true
    status.value = 'loading'
    let resolution: Resolution
    try {
      resolution = await resolveSong(song, true)
    } catch (cause) {
      if (mine !== generation) return
      const failure = toCadenceError(cause)
      if (isSourceDown(failure)) return stopWithError(failure)
      return skip(song, { cause: 'error', reason: failure.message }, { autoplay: wantPlaying })
    }
    if (mine !== generation) return
    detail.value = resolution.song
    if (!resolution.url || resolution.song.privilege?.playable === false) {
      const cause = resolution.url ? 'unplayable' : 'no-url'
      return skip(song, { cause, reason: resolution.song.privilege?.reason }, { autoplay: wantPlaying })
    }
    const el = element()
    status.value = 'ready'
    positionMs.value = resumeAt
    el.src = resolution.url
    el.currentTime = resumeAt / 1000
    if (wantPlaying) await start(mine)
  }

  async function onEnded() {
    const step = q.advance()
    if (step === 'same') {
      seek(0)
      return start(generation)
    }
    if (step === 'end') {
      wantPlaying = false
      seek(0)
      return deps.onProgress?.('end')
    }
    return load({ autoplay: true })
  }

  // ---- transport ----

  /** Plays the current entry: resumes the loaded one, or loads it (again, after an error). */
  function play(): Promise<void> | void {
    const entry = q.currentEntry
    if (!entry) return
    if (loadedKey !== entry.key || status.value === 'error') {
      error.value = undefined
      return load({ autoplay: true, positionMs: positionMs.value })
    }
    wantPlaying = true
    return start(generation)
  }
  function pause() {
    wantPlaying = false
    audio?.pause()
  }
  function toggle() {
    return wantPlaying || playing.value ? pause() : play()
  }
  function seek(ms: number) {
    const max = durationMs.value > 0 ? durationMs.value : Number.POSITIVE_INFINITY
    const target = Math.max(0, Math.min(ms, max))
    positionMs.value = target
    clockChanges.value++
    if (audio && loadedKey !== null) {
      pendingSeekMs = target
      audio.currentTime = target / 1000
    }
  }
  function setVolume(value: number) {
    volume.value = Math.max(0, Math.min(1, Math.round(value * 100) / 100))
    if (volume.value > 0 && muted.value) setMuted(false)
    if (audio) audio.volume = volume.value
  }
  function setMuted(value: boolean) {
    muted.value = value
    if (audio) audio.muted = value
  }

  /** The exact audio clock (for word-by-word lyrics, which need more than `timeupdate`'s 4 Hz). */
  function currentTimeMs(): number {
    return audio && loadedKey !== null ? audio.currentTime * 1000 : positionMs.value
  }

  return {
    playing,
    status,
    positionMs,
    durationMs,
    volume,
    muted,
    error,
    detail,
    clockChanges,
    /** Whether the user wants sound (true while a song loads to play). */
    wantsToPlay: () => wantPlaying,
    load,
    reset,
    play,
    pause,
    toggle,
    seek,
    setVolume,
    setMuted,
    currentTimeMs,
    prefetchSoon,
  }
}
