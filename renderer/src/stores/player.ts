import { defineStore } from 'pinia'
import { computed, reactive, shallowRef, watch } from 'vue'
import type { Song } from '@shared/api/models'
import { shouldRestartOnPrevious } from '@shared/player/queue'
import type { RepeatMode } from '@shared/player/queue'
import { invoke } from '@renderer/services/cadence'
import { createPlaybackEngine } from '@renderer/services/player/engine'
import { whenIdle } from '@renderer/services/idle'
import type { PlayerNotice } from '@renderer/services/player/engine'
import { createPlayerSession } from '@renderer/services/player/session'
import { sourceOf, useQueueStore } from '@renderer/stores/queue'
import { useAuthStore } from '@renderer/stores/auth'
import { useLikesStore } from '@renderer/stores/likes'
import { useSettingsStore } from '@renderer/stores/settings'
import { usePlayerSound } from '@renderer/stores/player-sound'
import { useOfflineStore } from '@renderer/stores/offline'
import { toCadenceError } from '@renderer/services/cadence-error'

/**
 * The player as views see it: one place for the actions (play, queue edits, seek, like) and the state to
 * show. It composes the parts that each do one job (docs/playback.md): the queue (`stores/queue`), the
 * playback engine (`services/player/engine`: the output, resolving, recovery), the session
 * (`services/player/session`: save and restore); media integration (`services/player/media-session`) drives it
 * from outside.
 */

export { URL_MAX_AGE_MS } from '@renderer/services/player/engine'
export type { PlayerNotice, PlayerStatus, SkipCause } from '@renderer/services/player/engine'
export { SAVE_INTERVAL_MS } from '@renderer/services/player/session'

/** A "skipped" notice disappears after this long; a "stopped" one stays. */
export const NOTICE_MS = 10_000

export const usePlayerStore = defineStore('player', () => {
  const q = useQueueStore()
  const likes = useLikesStore()
  const settingsStore = useSettingsStore()
  const offline = useOfflineStore()
  const auth = useAuthStore()
  /** Quality and lyric defaults, from the settings store (defaults until main answers). */
  const settings = computed(() => settingsStore.settings)

  // ---- notices: the one path for messages about playback ----

  const notice = shallowRef<PlayerNotice | null>(null)
  let noticeTimer: ReturnType<typeof setTimeout> | undefined
  function notify(value: PlayerNotice) {
    // Songs skipped in a row for one reason (their source cannot be reached): one notice counts them.
    const shown = notice.value
    if (
      value.type === 'skipped' &&
      shown?.type === 'skipped' &&
      value.reason &&
      shown.reason === value.reason
    )
      value = { ...value, count: (shown.count ?? 1) + 1 }
    notice.value = value
    clearTimeout(noticeTimer)
    if (value.type !== 'stopped' && value.type !== 'cut-short' && value.type !== 'offline-end')
      noticeTimer = setTimeout(() => (notice.value = null), NOTICE_MS)
  }
  function clearNotice() {
    clearTimeout(noticeTimer)
    notice.value = null
  }
  // Loudness, equaliser and output device (and the message when the chosen device is missing).
  const sound = usePlayerSound(() => settings.value, {
    notify,
    clear: (type) => notice.value?.type === type && clearNotice(),
  })

  /** Waits for the settings (the bitrate depends on them); loads them if nobody has yet. */
  function ensureSettings(): Promise<void> {
    if (settingsStore.status === 'idle') return settingsStore.load()
    if (settingsStore.status !== 'loading') return Promise.resolve()
    return new Promise((resolve) => {
      const stop = watch(
        () => settingsStore.status,
        (status) => {
          if (status === 'loading') return
          stop()
          resolve()
        },
      )
    })
  }

  const engine = createPlaybackEngine({
    queue: q,
    resolve: (args) => invoke('player:resolve', args),
    quality: () => settings.value.quality,
    ready: ensureSettings,
    notify,
    // Offline mode is the active source's: a song of another source is left to its own source.
    playableOffline: (song) => {
      if (!offline.state.offline) return undefined
      const named = sourceOf(song)
      return (named !== undefined && named !== auth.sourceId) || !!offline.availability(song)
    },
    createOutput: sound.createOutput,
    onProgress: (reason) => session.onProgress(reason),
  })
  const { playing, status, positionMs, durationMs, volume, muted, speed, error, detail, clockChanges } =
    engine
  // Speed applies at once, also while a song plays.
  watch(
    () => settings.value.speed,
    (value) => engine.setSpeed(value),
    { immediate: true },
  )
  const session = createPlayerSession({
    queue: q,
    engine: reactive(engine),
    edits: [() => q.state, volume, muted],
  })

  const entries = computed(() => q.entries)
  const queue = computed<Song[]>(() => q.songs)
  const index = computed(() => q.index)
  const shuffle = computed(() => q.shuffle)
  const repeat = computed<RepeatMode>(() => q.repeat)
  const currentKey = computed(() => q.currentKey)
  const current = computed<Song | null>(() => {
    const item = q.currentEntry?.item
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
  /** Likes are shared with the song rows (the likes store), so a heart anywhere shows everywhere. */
  const liked = computed(() => (current.value ? likes.isLiked(current.value) : false))

  // ---- queue actions ----

  /** Play all: replaces the queue and starts at `startIndex` (the modes are kept). */
  function playSongs(songs: Song[], startIndex = 0) {
    q.replace(songs, startIndex)
    return engine.load({ autoplay: true })
  }
  /**
   * A song a play may soon ask for (a row's first press, or its focus before Enter): its resolve and its
   * head's fetch start now, and that play takes both; without a play the head is dropped. `wake` (a
   * press): the output's suspended device is resumed too.
   */
  function prepare(song: Song, wake?: boolean) {
    if (song.privilege?.playable === false) return
    void ensureSettings()
      // Stamped with its source as the queue will hold it, so the play finds this resolve in the cache.
      .then(() => engine.resolveAhead(q.stamped(song)))
      .then((resolution) => resolution.url && sound.warmHead(resolution.url, wake))
      .catch(() => undefined)
  }
  /** Plays a song now, keeping the rest of the queue after it. */
  function playNow(song: Song) {
    q.playNow(song)
    return engine.load({ autoplay: true })
  }
  function playNext(songs: Song | readonly Song[]) {
    q.playNext(songs)
    engine.prefetchSoon()
  }
  function addToQueue(songs: Song | readonly Song[]) {
    q.add(songs)
    engine.prefetchSoon()
  }
  /** Plays the queue entry with this key. */
  function playEntry(key: string) {
    q.jumpTo(key)
    return engine.load({ autoplay: true })
  }
  function remove(key: string) {
    const wasCurrent = currentKey.value === key
    q.remove(key)
    if (!wasCurrent) return engine.prefetchSoon()
    if (q.currentEntry) return engine.load({ autoplay: engine.wantsToPlay() })
    clear()
  }
  /** Moves the entry at `from` to index `to`; the current song keeps playing. */
  function move(from: number, to: number) {
    q.move(from, to)
    engine.prefetchSoon()
  }
  function clear() {
    q.clear()
    engine.reset()
  }
  function setShuffle(on: boolean) {
    q.setShuffle(on)
    engine.prefetchSoon()
  }
  function toggleShuffle() {
    setShuffle(!shuffle.value)
  }
  function setRepeat(mode: RepeatMode) {
    q.setRepeat(mode)
  }
  function cycleRepeat() {
    q.cycleRepeat()
  }

  // ---- transport ----

  function play() {
    // Playing again after the data source was down: the "stopped" message has done its job.
    const kind = notice.value?.type
    if (kind === 'stopped' || kind === 'cut-short' || kind === 'offline-end') clearNotice()
    return engine.play()
  }
  function toggle() {
    if (!q.currentEntry) {
      // Play with an empty queue: say what to do rather than nothing at all.
      notify({ type: 'empty' })
      return
    }
    return engine.wantsToPlay() || playing.value ? engine.pause() : play()
  }
  function stop() {
    engine.pause()
    engine.seek(0)
  }
  function next() {
    return q.next() ? engine.load({ autoplay: true }) : undefined
  }
  /** More than 3 s in: back to the start of the song; otherwise the song before. */
  function previous() {
    if (shouldRestartOnPrevious(positionMs.value)) return engine.seek(0)
    if (!q.previous()) return engine.seek(0)
    return engine.load({ autoplay: true, direction: -1 })
  }
  function toggleMute() {
    engine.setMuted(!muted.value)
  }

  /** Likes or unlikes the current song (tray commands); a refusal is rolled back and shown. */
  async function setLiked(like: boolean): Promise<boolean> {
    const song = current.value
    if (!song) return false
    try {
      await likes.setLiked(song, like)
      return true
    } catch (cause) {
      const failure = toCadenceError(cause)
      notify({ type: 'failed', message: failure.message, error: failure })
      return false
    }
  }
  function toggleLike() {
    return setLiked(!liked.value)
  }

  let initialised: Promise<void> | undefined
  /** Starts the player once per app: the settings and the restored session; saves when the page goes. */
  function init(): Promise<void> {
    if (initialised) return initialised
    if (typeof window !== 'undefined') window.addEventListener('pagehide', () => void session.save())
    initialised = Promise.all([ensureSettings(), session.restore()]).then(() => undefined)
    void sound.start()
    // The output's device, opened once the page has settled: the first Play then starts at once.
    void initialised.then(() => whenIdle(() => engine.warm()))
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
    speed,
    shuffle,
    repeat,
    liked,
    error,
    notice,
    settings,
    clockChanges,
    init,
    playSongs,
    prepare,
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
    pause: engine.pause,
    toggle,
    stop,
    next,
    previous,
    seek: engine.seek,
    setVolume: engine.setVolume,
    toggleMute,
    setLiked,
    toggleLike,
    clearNotice,
    currentTimeMs: engine.currentTimeMs,
    saveSession: session.save,
    /** The sleep timer's fade out on the audio clock (`stores/sleep-timer.ts`). */
    fadeOut: sound.fadeOut,
    cancelFadeOut: sound.cancelFadeOut,
    restoreSession: session.restore,
  }
})
