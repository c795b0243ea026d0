import { defineStore } from 'pinia'
import { computed, ref, shallowRef, watch } from 'vue'
import { songSchema } from '@shared/api/models'
import type { Song } from '@shared/api/models'
import { CadenceError } from '@shared/errors'
import type { PlayerCommandName, PlayerSession, PlayerState } from '@shared/ipc/contract'
import { DEFAULT_SETTINGS } from '@shared/settings'
import type { Settings } from '@shared/settings'
import * as Q from '@shared/player/queue'
import type { QueueState, RepeatMode } from '@shared/player/queue'
import { chooseBitrate } from '@shared/player/quality'
import { invoke, on } from '@renderer/services/cadence'
import { createPlayerAudio } from '@renderer/composables/player-audio'
import type { PlayerAudio } from '@renderer/composables/player-audio'

/**
 * Playback: the queue (the pure model in `shared/player/queue`) and one audio element. Views call only the
 * actions below; how songs are resolved, recovered, skipped and saved stays in here (docs/playback.md).
 */

/** A resolved URL older than this is resolved again before use (signed media URLs expire). */
export const URL_MAX_AGE_MS = 4 * 60_000
/** While playing, the session is saved at least this often. */
export const SAVE_INTERVAL_MS = 5000
/** A "skipped" notice disappears after this long; a "stopped" one stays. */
export const NOTICE_MS = 10_000

export type SkipCause = 'unplayable' | 'no-url' | 'load-failed' | 'error'
export type PlayerNotice =
  | { type: 'skipped'; song: string; reason?: string; cause: SkipCause }
  | { type: 'stopped'; message: string }
  | { type: 'failed'; message: string }
export type PlayerStatus = 'idle' | 'loading' | 'ready' | 'error'

interface Resolution {
  song: Song
  url?: string
  br: number
  /** When it was resolved (ms since epoch). */
  at: number
}

interface LoadOptions {
  autoplay: boolean
  positionMs?: number
  /** How many songs in a row were skipped to get here (stops when the whole queue is unplayable). */
  skipped?: number
  direction?: 1 | -1
}

function toCadenceError(cause: unknown): CadenceError {
  if (cause instanceof CadenceError) return cause
  return new CadenceError({
    kind: 'internal',
    message: cause instanceof Error ? cause.message : String(cause),
  })
}

/** Errors that say nothing about the song itself: the data source (or main) is gone, so stop, don't skip. */
function isSourceDown(error: CadenceError): boolean {
  if (error.kind === 'api' || error.kind === 'invalid-response' || error.kind === 'invalid-argument')
    return false
  if (error.kind === 'http') return (error.status ?? 500) >= 500
  return true
}

function isSong(value: unknown): value is Song {
  return songSchema.safeParse(value).success
}

/** What the queue keeps of a song: no resolved URL (it expires) and no lyrics (they are fetched again). */
function queueable(song: Song): Song {
  if (!song.meta) return song
  const { meta: _meta, ...rest } = song
  return rest as Song
}

export const usePlayerStore = defineStore('player', () => {
  const queueState = shallowRef<QueueState<Song>>(Q.createQueue<Song>())
  const playing = ref(false)
  const status = ref<PlayerStatus>('idle')
  const positionMs = ref(0)
  const durationMs = ref(0)
  const volume = ref(1)
  const muted = ref(false)
  const error = shallowRef<CadenceError>()
  const notice = shallowRef<PlayerNotice | null>(null)
  /** The resolved song (meta with url, lyrics, isFavorite) of the current entry, once known. */
  const detail = shallowRef<Song | null>(null)
  const likes = shallowRef<Record<string, boolean>>({})
  const settings = shallowRef<Settings>(DEFAULT_SETTINGS)
  /** Bumped whenever the clock jumps or its rate changes (seek, play, pause): for the media session. */
  const clockChanges = ref(0)

  const entries = computed(() => queueState.value.entries)
  const queue = computed<Song[]>(() => queueState.value.entries.map((entry) => entry.item))
  const index = computed(() => queueState.value.current)
  const shuffle = computed(() => queueState.value.shuffle)
  const repeat = computed<RepeatMode>(() => queueState.value.repeat)
  const currentKey = computed(() => Q.currentEntry(queueState.value)?.key ?? null)
  const current = computed<Song | null>(() => {
    const item = Q.currentItem(queueState.value)
    if (!item) return null
    const more = detail.value
    if (!more || String(more.id) !== String(item.id)) return item
    return {
      ...item,
      ...more,
      name: more.name || item.name,
      artists: more.artists.length > 0 ? more.artists : item.artists,
      album: more.album ?? item.album,
    }
  })
  const liked = computed(() => {
    const song = current.value
    if (!song) return false
    return likes.value[String(song.id)] ?? song.meta?.isFavorite ?? false
  })

  // ---- the audio element ----

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
  let lastSavedAt = 0

  function element(): PlayerAudio {
    if (audio) return audio
    const el = createPlayerAudio()
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
      saveSession()
    })
    el.addEventListener('seeked', () => {
      pendingSeekMs = null
      positionMs.value = el.currentTime * 1000
      clockChanges.value++
    })
    el.addEventListener('timeupdate', () => {
      if (status.value === 'loading') return
      positionMs.value = el.currentTime * 1000
      if (playing.value && Date.now() - lastSavedAt >= SAVE_INTERVAL_MS) saveSession()
    })
    el.addEventListener('durationchange', () => {
      if (Number.isFinite(el.duration) && el.duration > 0) durationMs.value = el.duration * 1000
    })
    el.addEventListener('ended', () => void onEnded())
    el.addEventListener('error', () => void onAudioError())
    return el
  }

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

  // ---- settings (quality, lyric defaults) ----

  let settingsLoad: Promise<void> | undefined
  function ensureSettings(): Promise<void> {
    settingsLoad ??= invoke('settings:get')
      .then((value) => void (settings.value = value))
      .catch(() => undefined)
    return settingsLoad
  }

  // ---- resolving: `player:resolve` with the chosen bitrate, cached with its age ----

  const resolutions = new Map<string, Resolution>()
  const inflight = new Map<string, Promise<Resolution>>()

  function resolveSong(song: Song, fresh = false): Promise<Resolution> {
    const id = String(song.id)
    const br = chooseBitrate(song.privilege, settings.value.quality)
    const known = resolutions.get(id)
    if (!fresh && known && known.br === br && Date.now() - known.at < URL_MAX_AGE_MS) {
      return Promise.resolve(known)
    }
    const pending = inflight.get(id)
    if (!fresh && pending) return pending
    const at = Date.now()
    const request = invoke('player:resolve', { id: song.id, br })
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
    const entry = Q.peekNext(queueState.value)
    if (!entry || entry.item.privilege?.playable === false) return
    resolveSong(entry.item).catch(() => undefined)
  }

  // ---- loading and starting a song ----

  async function load(options: LoadOptions): Promise<void> {
    const mine = ++generation
    recoveryTried = false
    pendingSeekMs = null
    wantPlaying = options.autoplay
    const el = element()
    const entry = Q.currentEntry(queueState.value)
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
    await ensureSettings()
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
        notify({ type: 'failed', message: toCadenceError(cause).message })
      }
    }
  }

  function skip(song: Song, why: { cause: SkipCause; reason?: string }, options: LoadOptions) {
    notify({ type: 'skipped', song: song.name, reason: why.reason || undefined, cause: why.cause })
    const skipped = (options.skipped ?? 0) + 1
    const state = queueState.value
    // Manual moves, so that repeat-one moves on too.
    const moved =
      skipped < state.entries.length ? (options.direction === -1 ? Q.previous : Q.next)(state) : null
    if (!moved) {
      unload()
      return
    }
    queueState.value = moved
    return load({ ...options, positionMs: 0, skipped })
  }

  function stopWithError(failure: CadenceError) {
    const at = positionMs.value
    unload()
    positionMs.value = at
    error.value = failure
    status.value = 'error'
    notify({ type: 'stopped', message: failure.message })
  }

  /** The URL failed (expired: 403; or gone): resolve once more and resume where it was; skip if that fails. */
  async function onAudioError() {
    const entry = Q.currentEntry(queueState.value)
    if (!entry || loadedKey !== entry.key) return
    const mine = generation
    const resumeAt = pendingSeekMs ?? positionMs.value
    const song = entry.item
    if (recoveryTried) {
      const direction = 1
      return skip(song, { cause: 'load-failed' }, { autoplay: wantPlaying, direction })
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
    const state = queueState.value
    const moved = Q.next(state, { auto: true })
    if (moved === state) {
      seek(0)
      return start(generation)
    }
    if (!moved) {
      wantPlaying = false
      seek(0)
      saveSession()
      return
    }
    queueState.value = moved
    return load({ autoplay: true })
  }

  // ---- notices: the one path for messages about playback ----

  let noticeTimer: ReturnType<typeof setTimeout> | undefined
  function notify(value: PlayerNotice) {
    notice.value = value
    clearTimeout(noticeTimer)
    if (value.type !== 'stopped') noticeTimer = setTimeout(() => (notice.value = null), NOTICE_MS)
  }
  function clearNotice() {
    clearTimeout(noticeTimer)
    notice.value = null
  }

  // ---- actions for views ----

  /** Play all: replaces the queue and starts at `startIndex` (the modes are kept). */
  function playSongs(songs: Song[], startIndex = 0) {
    queueState.value = Q.setQueue(queueState.value, songs.map(queueable), { startIndex })
    return load({ autoplay: true })
  }
  /** Plays a song now, keeping the rest of the queue after it. */
  function playNow(song: Song) {
    queueState.value = Q.playNow(queueState.value, queueable(song))
    return load({ autoplay: true })
  }
  function playNext(song: Song) {
    queueState.value = Q.playNext(queueState.value, queueable(song))
    prefetchSoon()
  }
  function addToQueue(song: Song) {
    queueState.value = Q.addToQueue(queueState.value, queueable(song))
    prefetchSoon()
  }
  /** Plays the queue entry with this key. */
  function playEntry(key: string) {
    queueState.value = Q.jumpTo(queueState.value, key)
    return load({ autoplay: true })
  }
  function remove(key: string) {
    const wasCurrent = currentKey.value === key
    queueState.value = Q.removeFromQueue(queueState.value, key)
    if (!wasCurrent) return prefetchSoon()
    if (Q.currentEntry(queueState.value)) return load({ autoplay: wantPlaying })
    clear()
  }
  /** Moves the entry at `from` to index `to`; the current song keeps playing. */
  function move(from: number, to: number) {
    queueState.value = Q.moveInQueue(queueState.value, from, to)
    prefetchSoon()
  }
  function clear() {
    queueState.value = Q.clearQueue(queueState.value)
    unload()
    detail.value = null
    positionMs.value = 0
    durationMs.value = 0
  }
  function setShuffle(on: boolean) {
    queueState.value = Q.setShuffle(queueState.value, on)
    prefetchSoon()
  }
  function toggleShuffle() {
    setShuffle(!shuffle.value)
  }
  function setRepeat(mode: RepeatMode) {
    queueState.value = Q.setRepeat(queueState.value, mode)
  }
  function cycleRepeat() {
    queueState.value = Q.cycleRepeat(queueState.value)
  }

  function prefetchSoon() {
    if (playing.value) prefetchNext()
  }

  function play(): Promise<void> | void {
    const entry = Q.currentEntry(queueState.value)
    if (!entry) return
    if (loadedKey !== entry.key || status.value === 'error') {
      error.value = undefined
      if (notice.value?.type === 'stopped') clearNotice()
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
  function stop() {
    pause()
    seek(0)
  }
  function next() {
    const moved = Q.next(queueState.value)
    if (!moved) return
    queueState.value = moved
    return load({ autoplay: true })
  }
  /** More than 3 s in: back to the start of the song; otherwise the song before. */
  function previous() {
    if (Q.shouldRestartOnPrevious(positionMs.value)) return seek(0)
    const moved = Q.previous(queueState.value)
    if (!moved) return seek(0)
    queueState.value = moved
    return load({ autoplay: true, direction: -1 })
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
    if (volume.value > 0 && muted.value) muted.value = false
  }
  function toggleMute() {
    muted.value = !muted.value
  }
  watch(volume, (value) => audio && (audio.volume = value))
  watch(muted, (value) => audio && (audio.muted = value))

  /** The exact audio clock (for word-by-word lyrics, which need more than `timeupdate`'s 4 Hz). */
  function currentTimeMs(): number {
    return audio && loadedKey !== null ? audio.currentTime * 1000 : positionMs.value
  }

  async function setLiked(like: boolean) {
    const song = current.value
    if (!song) return
    const id = String(song.id)
    const before = likes.value
    likes.value = { ...before, [id]: like }
    try {
      const result = await invoke('catalog:like', { id: song.id, like })
      likes.value = { ...likes.value, [id]: result.like }
    } catch (cause) {
      likes.value = before
      notify({ type: 'failed', message: toCadenceError(cause).message })
    }
  }
  function toggleLike() {
    return setLiked(!liked.value)
  }

  // ---- session: saved through main, restored on the next start ----

  function snapshot(): PlayerSession {
    return {
      version: 1,
      queue: Q.queueToJSON(queueState.value),
      positionMs: Math.max(0, Math.round(positionMs.value)),
      volume: volume.value,
      muted: muted.value,
    }
  }
  let restored = false
  function saveSession(): Promise<void> {
    if (!restored) return Promise.resolve()
    lastSavedAt = Date.now()
    return invoke('player:save-session', snapshot()).catch(() => undefined)
  }
  let saveTimer: ReturnType<typeof setTimeout> | undefined
  watch([queueState, volume, muted], () => {
    clearTimeout(saveTimer)
    saveTimer = setTimeout(() => void saveSession(), 300)
  })

  /** Restores the last session, paused at the same position. Does nothing if something plays already. */
  async function restoreSession(): Promise<void> {
    let session: PlayerSession | null = null
    try {
      session = await invoke('player:load-session')
    } catch {
      // No session store (yet): start empty.
    }
    const untouched = queueState.value.entries.length === 0
    restored = true
    if (!session || !untouched) return
    queueState.value = Q.queueFromJSON<Song>(session.queue, isSong)
    volume.value = session.volume
    muted.value = session.muted
    if (Q.currentEntry(queueState.value)) await load({ autoplay: false, positionMs: session.positionMs })
  }

  // ---- main: commands from the tray and media keys, state for the tray ----

  function command(name: PlayerCommandName) {
    switch (name) {
      case 'play':
        return play()
      case 'pause':
        return pause()
      case 'toggle':
        return toggle()
      case 'next':
        return next()
      case 'previous':
        return previous()
      case 'stop':
        return stop()
      case 'like':
        return setLiked(true)
      case 'unlike':
        return setLiked(false)
    }
  }

  const reportedState = computed<PlayerState>(() => {
    const song = current.value
    return {
      playing: playing.value,
      song: song
        ? {
            id: song.id,
            name: song.name.slice(0, 500),
            artists: song.artists
              .map((artist) => artist.name)
              .join(', ')
              .slice(0, 1000),
            liked: liked.value,
          }
        : null,
    }
  })

  let initialised: Promise<void> | undefined
  /** Starts the player once per app: subscriptions, settings, the restored session, state reports. */
  function init(): Promise<void> {
    if (initialised) return initialised
    try {
      on('player:command', (payload) => void command(payload.command))
      on('settings:changed', (value) => (settings.value = value))
    } catch {
      // No bridge: nothing to listen to.
    }
    let reportTimer: ReturnType<typeof setTimeout> | undefined
    let lastReport = ''
    watch(
      reportedState,
      (state) => {
        clearTimeout(reportTimer)
        reportTimer = setTimeout(() => {
          const text = JSON.stringify(state)
          if (text === lastReport) return
          lastReport = text
          invoke('player:report-state', state).catch(() => undefined)
        }, 50)
      },
      { immediate: true },
    )
    if (typeof window !== 'undefined') window.addEventListener('pagehide', () => void saveSession())
    initialised = Promise.all([ensureSettings(), restoreSession()]).then(() => undefined)
    return initialised
  }

  return {
    queue,
    entries,
    index,
    current,
    currentKey,
    detail,
    playing,
    status,
    positionMs,
    durationMs,
    volume,
    muted,
    shuffle,
    repeat,
    liked,
    error,
    notice,
    settings,
    clockChanges,
    init,
    playSongs,
    playNow,
    playNext,
    addToQueue,
    playEntry,
    remove,
    move,
    clear,
    setShuffle,
    toggleShuffle,
    setRepeat,
    cycleRepeat,
    play,
    pause,
    toggle,
    stop,
    next,
    previous,
    seek,
    setVolume,
    toggleMute,
    setLiked,
    toggleLike,
    clearNotice,
    command,
    currentTimeMs,
    saveSession,
    restoreSession,
  }
})
