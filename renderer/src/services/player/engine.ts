import { ref, shallowRef } from 'vue'
import type { Song } from '@shared/api/models'
import type { CadenceError } from '@shared/errors'
import { clampSpeed } from '@shared/settings'
import { toCadenceError } from '@renderer/services/cadence-error'
import { canWarm, createPlayerOutput } from './player-output'
import type { PlayerOutput } from './audio/player-output'
import type { LoadOptions, PlaybackEngineDeps, PlayerNotice, PlayerStatus, SkipCause } from './engine-types'
import { isSourceDown, moveOn } from './recovery'
import { createFollowing, markAlbumOrder } from './following'
import { createResolveCache, type Resolution } from './resolve-cache'

/**
 * The playback engine: the player's output (an element-like face over the Web Audio output), its events,
 * and resolve-and-resume. It resolves the current queue entry (`player:resolve` with the chosen bitrate),
 * plays it, fetches the next song's URL ahead of time, re-resolves an expired URL and resumes at the same
 * position, skips what cannot play, stops (keeping the queue) when the data source is down, and stops on
 * a song whose source stopped answering once what had come of it played. It knows nothing of views,
 * sessions or main. Its parts: `resolve-cache.ts` (resolving with its age), `recovery.ts` (stop or skip),
 * `following.ts` (the song a gapless output prepares), `player-output.ts` (the output it drives) and
 * `engine-types.ts`.
 */

export { URL_MAX_AGE_MS } from './resolve-cache'
export type {
  EngineQueue,
  LoadOptions,
  PlaybackEngineDeps,
  PlayerNotice,
  PlayerStatus,
  SkipCause,
} from './engine-types'
export type { PlayerOutput } from './audio/player-output'
export { createPlayerOutput, hasSoundControls } from './player-output'
export type { SoundOutput } from './player-output'
export type { OutputOptions } from './audio/output'

export type PlaybackEngine = ReturnType<typeof createPlaybackEngine>

export function createPlaybackEngine(deps: PlaybackEngineDeps) {
  const q = deps.queue
  const playing = ref(false)
  const status = ref<PlayerStatus>('idle')
  const positionMs = ref(0)
  const durationMs = ref(0)
  const volume = ref(1)
  const muted = ref(false)
  /** Playback speed, 0.5–2×, the pitch kept; positions stay in song time. */
  const speed = ref(1)
  const error = shallowRef<CadenceError>()
  /** The resolved song (meta with url, lyrics, isFavorite) of the current entry, once known. */
  const detail = shallowRef<Song | null>(null)
  /** Bumped whenever the clock jumps or its rate changes (seek, play, pause): for the media session. */
  const clockChanges = ref(0)

  let audio: PlayerOutput | undefined
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

  function element(): PlayerOutput {
    if (audio) return audio
    const el = (deps.createOutput ?? createPlayerOutput)()
    audio = el
    el.setVolume(volume.value)
    el.setMuted(muted.value)
    applySpeed(el)
    el.on('playing', () => {
      playing.value = true
      status.value = 'ready'
      error.value = undefined
      clockChanges.value++
      if (startedGeneration !== generation) {
        startedGeneration = generation
        prefetchNext()
      }
    })
    el.on('pause', () => {
      playing.value = false
      clockChanges.value++
      deps.onProgress?.('pause')
    })
    el.on('seeked', () => {
      pendingSeekMs = null
      positionMs.value = el.position * 1000
      clockChanges.value++
    })
    el.on('timeupdate', () => {
      if (status.value === 'loading') return
      positionMs.value = el.position * 1000
      if (playing.value) deps.onProgress?.('tick')
    })
    // The song's own length (the list's, the same the row shows); the audio's only when it has none.
    el.on('durationchange', () => {
      const known = detail.value?.duration || q.currentEntry?.item.duration
      if (!known && Number.isFinite(el.duration) && el.duration > 0) durationMs.value = el.duration * 1000
    })
    el.on('ended', () => void onEnded())
    el.on('error', () => void onAudioError())
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
      audio.load('')
    }
  }

  /** Nothing to play: no song, no position. */
  function reset() {
    unload()
    detail.value = null
    positionMs.value = durationMs.value = 0
  }

  // ---- resolving: `player:resolve` with the chosen bitrate, cached with its age ----

  const resolveSong = createResolveCache(deps)

  /** Resolves the song that `next` would play, so skipping is instant. */
  function prefetchNext() {
    const song = q.peekNext()
    if (song && song.privilege?.playable !== false) resolveSong(song).catch(() => undefined)
    prepareFollowing()
  }

  /** Tells a gapless output which song follows when the current one ends (none for repeat one). */
  const prepareFollowing = createFollowing({
    queue: q,
    resolveSong,
    output: () => audio,
    generation: () => generation,
  })

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
    // A song resolved ahead (a row's press) plays in this task: no await lets the UI's update go first.
    const known = resolveSong.known(song)
    if (!known) await deps.ready()
    let resolution: Resolution
    try {
      resolution = known ?? (await resolveSong(song))
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
    markAlbumOrder(resolution.url, q, entry.key)
    el.load(resolution.url)
    // A seek while resolving moved `positionMs` on: start there.
    if (positionMs.value > 0) el.seek(positionMs.value / 1000)
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
    const skipFrom = options.skipFrom ?? q.currentEntry?.key
    const { moved, skipped } = moveOn(q, options, deps.playableOffline)
    if (!moved) {
      // Nothing after it plays: back to where the skipping started, so Play takes up the queue there
      // once the songs can play again; offline, the player says so once.
      const offline = deps.playableOffline?.(song) !== undefined
      if (skipFrom && (skipped > 1 || offline)) q.jumpTo?.(skipFrom)
      unload()
      if (offline) deps.notify({ type: 'offline-end', song: song.name })
      return
    }
    return load({ ...options, positionMs: 0, skipped, skipFrom })
  }

  /** Stops on the current song at `at` (ms), keeping the queue, and says why once. */
  function stopOn(notice: PlayerNotice, at = positionMs.value, failure?: CadenceError) {
    unload()
    positionMs.value = at
    error.value = failure
    status.value = 'error'
    deps.notify(notice)
  }
  const stopWithError = (failure: CadenceError) =>
    stopOn({ type: 'stopped', message: failure.message, error: failure }, undefined, failure)
  /** Its source stopped answering: it played as far as its audio came, and stops there. */
  const stopCutShort = (song: Song, at: number) => stopOn({ type: 'cut-short', song: song.name }, at)

  /** The URL failed (expired: 403; or gone): resolve once more and resume where it was; skip if that fails. */
  async function onAudioError() {
    const entry = q.currentEntry
    if (!entry || loadedKey !== entry.key) return
    const mine = generation
    const resumeAt = pendingSeekMs ?? positionMs.value
    const song = entry.item
    // Its source stopped answering while it played: what had come was heard; it resumes there if the
    // source answers again, else the player stops on it with one notice (nothing is skipped).
    const cutShort = audio?.error?.cutShort === true
    if (recoveryTried) {
      if (cutShort) return stopCutShort(song, resumeAt)
      return skip(song, { cause: 'load-failed' }, { autoplay: wantPlaying, direction: 1 })
    }
    recoveryTried = true
    status.value = 'loading'
    let resolution: Resolution
    try {
      resolution = await resolveSong(song, true)
    } catch (cause) {
      if (mine !== generation) return
      if (cutShort) return stopCutShort(song, resumeAt)
      const failure = toCadenceError(cause)
      if (isSourceDown(failure)) return stopWithError(failure)
      return skip(song, { cause: 'error', reason: failure.message }, { autoplay: wantPlaying })
    }
    if (mine !== generation) return
    detail.value = resolution.song
    if (cutShort && (!resolution.url || resolution.song.privilege?.playable === false))
      return stopCutShort(song, resumeAt)
    if (!resolution.url || resolution.song.privilege?.playable === false) {
      const cause = resolution.url ? 'unplayable' : 'no-url'
      return skip(song, { cause, reason: resolution.song.privilege?.reason }, { autoplay: wantPlaying })
    }
    const el = element()
    status.value = 'ready'
    positionMs.value = resumeAt
    markAlbumOrder(resolution.url, q, entry.key)
    el.load(resolution.url)
    el.seek(resumeAt / 1000)
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
    // After the output's `ended` has reached its other listeners (a song resolved ahead loads at once).
    return Promise.resolve().then(() => load({ autoplay: true }))
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
      audio.seek(target / 1000)
    }
  }
  function setVolume(value: number) {
    volume.value = Math.max(0, Math.min(1, Math.round(value * 100) / 100))
    if (volume.value > 0 && muted.value) setMuted(false)
    if (audio) audio.setVolume(volume.value)
  }
  function setMuted(value: boolean) {
    muted.value = value
    if (audio) audio.setMuted(value)
  }
  /** Speed from now on, the pitch kept (the Web Audio output applies it within 0.2 s, without a gap). */
  function setSpeed(value: number) {
    const next = clampSpeed(value)
    if (next === speed.value) return
    speed.value = next
    clockChanges.value++
    if (audio) applySpeed(audio)
  }
  function applySpeed(el: PlayerOutput) {
    el.setSpeed(speed.value)
  }

  /**
   * Makes the output and opens its device while nothing plays, so the first Play is heard as fast as the
   * next ones (the first stream of a page takes Chromium over a second to start).
   */
  function warm() {
    const el = element()
    if (canWarm(el)) el.warm()
  }

  /** The exact audio clock (for word-by-word lyrics, which need more than `timeupdate`'s 4 Hz). */
  function currentTimeMs(): number {
    return audio && loadedKey !== null ? audio.position * 1000 : positionMs.value
  }

  return {
    playing,
    status,
    positionMs,
    durationMs,
    volume,
    muted,
    speed,
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
    setSpeed,
    currentTimeMs,
    prefetchSoon,
    /** Resolves a song a play may soon ask for (a row pressed): its load takes the same resolution. */
    resolveAhead: (song: Song) => resolveSong(song),
    warm,
  }
}
