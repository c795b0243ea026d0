import { computed, effectScope, shallowRef, watch } from 'vue'
import type { Song } from '@shared/api/models'
import type { PlayerCommandName, PlayerState, TrackInfo } from '@shared/ipc/contract'
import { invoke, on } from '@renderer/services/cadence'
import { coverPng } from '@renderer/services/cover-image'
import { artistNames } from '@shared/api/artist-names'
import { coverUrl } from '@renderer/services/cover-url'
import { createArtworkSource } from './media-artwork'

/**
 * Media integration: the player as the desktop sees it. Mirrors the player into `navigator.mediaSession`
 * (the OS media overlay, media keys, headset buttons), obeys main's commands (tray, global media keys) and
 * reports what is playing to main (the tray shows it; a new song may be announced by a notification). One start per app, from the player's start-up.
 */

/** Seconds moved by the OS's seek backward / forward buttons when they give no offset. */
const DEFAULT_SKIP_S = 10
/** How far a global shortcut moves the volume. */
const VOLUME_STEP = 0.05
/** State reports to main wait this long for the state to settle (a skip changes it twice). */
const REPORT_SETTLE_MS = 50

/** What the integration reads and drives: the player store. */
export interface MediaPlayer {
  readonly current: Song | null
  readonly playing: boolean
  readonly liked: boolean
  readonly positionMs: number
  readonly durationMs: number
  /** Playback speed (the OS extrapolates the position with it). */
  readonly speed: number
  readonly clockChanges: number
  /** The volume (0–1) and its setter, for the global shortcuts' volume steps. */
  readonly volume?: number
  setVolume?(volume: number): unknown
  play(): unknown
  pause(): unknown
  toggle(): unknown
  stop(): unknown
  next(): unknown
  previous(): unknown
  seek(ms: number): unknown
  setLiked(like: boolean): unknown
  saveSession(): unknown
}

/** The sleep timer as main is told about it (tray), and its cancel (`stores/sleep-timer.ts`). */
export interface MediaSleep {
  state(): PlayerState['sleep']
  cancel(): unknown
}

/** Runs a command from main (tray, media keys). */
export function runCommand(player: MediaPlayer, name: PlayerCommandName, sleep?: MediaSleep): unknown {
  switch (name) {
    case 'play':
      return player.play()
    case 'pause':
      return player.pause()
    case 'toggle':
      return player.toggle()
    case 'next':
      return player.next()
    case 'previous':
      return player.previous()
    case 'stop':
      return player.stop()
    case 'like':
      return player.setLiked(true)
    case 'unlike':
      return player.setLiked(false)
    case 'save-session':
      return player.saveSession()
    case 'cancel-sleep':
      return sleep?.cancel()
    case 'volume-up':
    case 'volume-down': {
      const step = name === 'volume-up' ? VOLUME_STEP : -VOLUME_STEP
      const next = Math.round(Math.min(1, Math.max(0, (player.volume ?? 1) + step)) * 100) / 100
      return player.setVolume?.(next)
    }
  }
}

/** What main is told about the player (bounded, as the contract's schema wants). */
export function playerState(
  player: MediaPlayer,
  sleep?: MediaSleep,
  progress?: PlayerState['progress'],
): PlayerState {
  const song = player.current
  const timer = sleep?.state()
  return {
    ...(timer ? { sleep: timer } : {}),
    ...(song && progress ? { progress } : {}),
    playing: player.playing,
    song: song
      ? {
          id: song.id,
          name: song.name.slice(0, 500),
          artists: artistNames(song).slice(0, 1000),
          liked: player.liked,
        }
      : null,
  }
}

/**
 * Where the OS loads a cover from: its address, or (offline) the copy main keeps on disk, fetched under
 * the policy of the song's source (`sourceId`).
 */
type CoverSrc = (url: string, sourceId?: string) => string | undefined
type Sourced = { sourceId?: string }

function connectMediaSession(player: MediaPlayer, session: MediaSession, coverSrc: CoverSrc) {
  const handlers: Partial<Record<MediaSessionAction, MediaSessionActionHandler>> = {
    play: () => void player.play(),
    pause: () => void player.pause(),
    stop: () => void player.stop(),
    previoustrack: () => void player.previous(),
    nexttrack: () => void player.next(),
    seekto: (details) => {
      if (details.seekTime !== undefined) player.seek(details.seekTime * 1000)
    },
    seekbackward: (details) => player.seek(player.positionMs - (details.seekOffset ?? DEFAULT_SKIP_S) * 1000),
    seekforward: (details) => player.seek(player.positionMs + (details.seekOffset ?? DEFAULT_SKIP_S) * 1000),
  }
  for (const [action, handler] of Object.entries(handlers)) {
    try {
      session.setActionHandler(action as MediaSessionAction, handler)
    } catch {
      // This browser does not know the action.
    }
  }

  // Set again when the cover's address changes (offline: the kept copy's, read into a blob: address).
  const artworks = createArtworkSource()
  const describe = (song: Song, artwork: string | undefined) =>
    new MediaMetadata({
      title: song.name,
      artist: artistNames(song),
      album: song.album?.name ?? '',
      artwork: artwork ? [{ src: artwork, sizes: '512x512' }] : [],
    })
  watch(
    () => {
      const cover = player.current?.album?.cover
      const sourceId = (player.current as Sourced | null)?.sourceId
      return [
        player.current,
        cover && /^https?:/i.test(cover) ? coverSrc(cover, sourceId) : undefined,
      ] as const
    },
    ([song, cover]) => {
      if (!song || typeof MediaMetadata === 'undefined') {
        void artworks.artwork(undefined)
        session.metadata = null
        return
      }
      const at = cover && artworks.accepted(cover) ? cover : undefined
      session.metadata = describe(song, at)
      if (!cover || at) return void artworks.artwork(at)
      void artworks.artwork(cover).then((artwork) => {
        if (artwork && player.current === song) session.metadata = describe(song, artwork)
      })
    },
    { immediate: true },
  )

  watch(
    () => player.playing,
    (playing) => (session.playbackState = player.current ? (playing ? 'playing' : 'paused') : 'none'),
    { immediate: true },
  )

  // Position only when the clock jumps or its rate changes, never per `timeupdate` (the OS extrapolates
  // at the speed: positions are song time).
  watch(
    () => [player.clockChanges, player.durationMs, player.playing, player.speed] as const,
    () => {
      const duration = player.durationMs / 1000
      if (!session.setPositionState || !(duration > 0)) return
      try {
        session.setPositionState({
          duration,
          playbackRate: player.speed,
          position: Math.min(Math.max(player.positionMs / 1000, 0), duration),
        })
      } catch {
        // An inconsistent state (e.g. duration not known yet) is dropped; the next change sets it.
      }
    },
  )

  return () => {
    artworks.dispose()
    for (const action of Object.keys(handlers)) {
      try {
        session.setActionHandler(action as MediaSessionAction, null)
      } catch {
        // ignore
      }
    }
  }
}

function connectMain(player: MediaPlayer, sleep?: MediaSleep): () => void {
  let unsubscribe = () => {}
  try {
    unsubscribe = on('player:command', (payload) => void runCommand(player, payload.command, sleep))
  } catch {
    // No bridge: nothing to listen to.
  }
  let reportTimer: ReturnType<typeof setTimeout> | undefined
  let lastReport = ''
  // The position as the clock last jumped or changed rate (main moves it on for the taskbar progress),
  // never per tick: read in the watcher, so the position's own changes are not followed.
  const progress = shallowRef<PlayerState['progress']>()
  watch(
    () => [player.clockChanges, player.durationMs, player.playing, player.speed, player.current] as const,
    () => {
      const durationMs = player.durationMs
      progress.value =
        durationMs > 0 && Number.isFinite(durationMs) && durationMs <= 1e9
          ? {
              positionMs: Math.round(Math.min(Math.max(player.positionMs, 0), durationMs)),
              durationMs: Math.round(durationMs),
              speed: Math.min(4, Math.max(0.25, player.speed)),
            }
          : undefined
    },
    { immediate: true },
  )
  watch(
    computed(() => playerState(player, sleep, progress.value)),
    (state) => {
      clearTimeout(reportTimer)
      reportTimer = setTimeout(() => {
        const text = JSON.stringify(state)
        if (text === lastReport) return
        lastReport = text
        invoke('player:report-state', state).catch(() => undefined)
      }, REPORT_SETTLE_MS)
    },
    { immediate: true },
  )
  // A new song playing: main decides whether to notify (the setting, window focus) and fetches the cover.
  let announced: string | null = null
  watch(
    () => [player.current?.id, player.playing] as const,
    ([id, playing]) => {
      const song = player.current
      if (!playing || id === undefined || !song || String(id) === announced) return
      announced = String(id)
      // Drawing the cover takes a moment (main fetches it): a song no longer playing by then is not announced.
      void announce(song, () => announced === String(id) && player.current?.id === id)
    },
  )
  return () => {
    clearTimeout(reportTimer)
    unsubscribe()
  }
}

/** Tells main about a new song, with its cover drawn as a PNG when it can be read (SVG covers too). */
async function announce(song: Song, stillPlaying: () => boolean) {
  const info = trackInfo(song)
  const image = info.cover ? await coverPng(info.cover, (song as Sourced).sourceId) : null
  if (!stillPlaying()) return
  invoke('notify:track-changed', image ? { ...info, coverImage: image } : info).catch(() => undefined)
}

/** What the track-change notification shows (bounded, as the contract's schema wants). */
export function trackInfo(song: Song): TrackInfo {
  const cover = coverUrl(song)
  return {
    id: song.id,
    name: song.name.slice(0, 500),
    artists: artistNames(song).slice(0, 1000),
    ...(song.album?.name ? { album: song.album.name.slice(0, 500) } : {}),
    ...(cover && /^https?:/i.test(cover) && cover.length <= 2048 ? { cover } : {}),
  }
}

/**
 * Starts the media integration; the answer stops it (handlers removed, subscriptions closed). `coverSrc`:
 * where the OS session's artwork loads from (the app: the offline store's, the kept copy while offline).
 */
export function startMediaIntegration(
  player: MediaPlayer,
  options: {
    mediaSession?: MediaSession | undefined
    main?: boolean
    coverSrc?: CoverSrc
    sleep?: MediaSleep
  } = {},
): () => void {
  const session =
    'mediaSession' in options
      ? options.mediaSession
      : typeof navigator !== 'undefined'
        ? navigator.mediaSession
        : undefined
  const scope = effectScope(true)
  const stops: Array<() => void> = []
  scope.run(() => {
    if (session) stops.push(connectMediaSession(player, session, options.coverSrc ?? ((url) => url)))
    if (options.main !== false) stops.push(connectMain(player, options.sleep))
  })
  return () => {
    scope.stop()
    for (const stop of stops) stop()
  }
}
