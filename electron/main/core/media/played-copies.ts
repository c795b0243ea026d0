import type { Song } from '@shared/api/models'
import type { MediaRef } from '@shared/player/media-url'
import type { Logger } from '../log'
import { createUrlCache, playableUrl } from './song-url'
import type { CacheKey, LiveFill, MediaCache } from '../media-cache'
import { keyString, MediaCacheError } from '../media-cache'
import type { Timers } from '../ports'
import { realTimers } from '../ports'
import type { CopyView } from './copy-policy'
import { held, planCopies } from './copy-policy'

/** Resolves remembered for the copy of a song about to play. */
const RECENT_RESOLVES = 200
/** A song whose copy failed is not copied again for this long (each try would cost a request). */
export const COPY_RETRY_MS = 60_000

export interface PlayedCopiesDeps {
  cache: MediaCache
  /** `/song/detail` of the song at the key's bitrate, on the active data source. */
  detail: (key: CacheKey) => Promise<Song>
  activeSourceId: () => string
  /** Keeps the song's details, lyrics and cover beside its file. */
  keep: (key: CacheKey, song: Song) => Promise<void>
  /** A song joined the cache (the offline badges change). */
  onCached: () => void
  now: () => number
  timers?: Timers
  log: Logger
}

/** One media response reading a song's copy: it calls `release` once, when it reads it no more. */
export interface CopyReader {
  live: LiveFill
  release: () => void
}

/** A played song's copy, as this module follows it. */
interface Copy {
  key: CacheKey
  live: LiveFill
  /** Media responses reading it now. */
  readers: number
  /** Its song was the player's since the copy began. */
  played: boolean
  /** When it was last read or its song last the player's. */
  heldAt: number
  /** Stopped because nobody listened to it (not a failure: it may be copied again at once). */
  abandoned: boolean
}

/**
 * Played songs copied into the cache: the media scheme starts the copy on the song's first request and
 * serves the player from it as it arrives, so the first play fetches the song once. The copy uses the
 * signed URL `player:resolve` just got (no second `/song/detail`); its errors are only logged (playing
 * goes on from the network), and a song whose copy failed is not tried again for a minute.
 *
 * Each media response reading a copy holds it, and so does the player having its song (`playing`). A copy
 * nobody holds stops, and its partial file goes, when `planCopies` says (a skipped song: after a few
 * seconds, unless it is nearly done); a copy a download joined never stops.
 */
export function createPlayedCopies(deps: PlayedCopiesDeps) {
  const { cache, now } = deps
  const timers = deps.timers ?? realTimers
  const resolvedRecently = createUrlCache<{ song: Song; url: string; at: number }>({
    now,
    max: RECENT_RESOLVES,
  })
  const failedAt = new Map<string, number>()
  const copies = new Map<string, Copy>()
  /** The id of the player's song (undefined: none, or not said yet). */
  let playingId: string | undefined
  let recheck: unknown

  const current = (copy: Copy) => copy.key.songId === playingId
  const view = (copy: Copy): CopyView & { copy: Copy } => ({
    copy,
    readers: copy.readers,
    current: current(copy),
    played: copy.played,
    heldAt: copy.heldAt,
    received: copy.live.received,
    total: copy.live.total,
  })

  /** Stops the copies nobody wants any more (`planCopies`), and looks again when a grace runs out. */
  const review = () => {
    if (recheck !== undefined) timers.clearTimeout(recheck)
    recheck = undefined
    const running = [...copies.values()].filter((c) => c.live.state === 'running' && !cache.isDownload(c.key))
    const { stop, recheckIn } = planCopies(running.map(view), now())
    for (const { copy } of stop) {
      if (!cache.abandon(copy.key)) continue
      copy.abandoned = true
      copies.delete(keyString(copy.key))
      deps.log.info('stopped the copy of a song nobody listens to', {
        songId: copy.key.songId,
        received: copy.live.received,
        total: copy.live.total,
      })
    }
    if (recheckIn !== undefined) recheck = timers.setTimeout(review, recheckIn)
  }

  const origin = async (key: CacheKey, k: string): Promise<{ song: Song; url: string }> => {
    const recent = resolvedRecently.take(k)
    if (recent) return recent
    if (key.sourceId !== deps.activeSourceId()) {
      throw new MediaCacheError('cancelled', 'Its data source is not the active one')
    }
    const song = await deps.detail(key)
    const url = playableUrl(song)
    if (!url) throw new MediaCacheError('http', 'The data source has no audio for this song', 404)
    return { song, url }
  }

  /** Starts the song's copy, or undefined when it failed a moment ago. */
  const start = (key: CacheKey, k: string): Copy | undefined => {
    const failed = failedAt.get(k)
    if (failed !== undefined && now() - failed < COPY_RETRY_MS) return undefined
    failedAt.delete(k)
    let song: Song | undefined
    const filled = cache.fill(key, async () => {
      const found = await origin(key, k)
      song = found.song
      return { url: found.url, size: found.song.meta?.size, md5: found.song.meta?.md5 }
    })
    const live = cache.live(key) // the fetch is registered at once: never undefined here
    if (!live) {
      filled.catch(() => undefined)
      return undefined
    }
    const copy: Copy = { key, live, readers: 0, played: false, heldAt: now(), abandoned: false }
    copy.played = current(copy)
    copies.set(k, copy)
    // Once per copy, however many ranges read it.
    void filled.then(
      async () => {
        if (copies.get(k) === copy) copies.delete(k)
        deps.onCached()
        // Its details and lyrics too: it plays and sings offline, and starts without /song/detail.
        if (song) await deps.keep(key, song).catch(() => undefined)
      },
      (error: unknown) => {
        if (copies.get(k) === copy) copies.delete(k)
        if (copy.abandoned) return
        if (failedAt.size > RECENT_RESOLVES) failedAt.clear()
        failedAt.set(k, now())
        deps.log.info('a played song was not cached', {
          songId: key.songId,
          reason: error instanceof MediaCacheError ? error.reason : String(error),
        })
      },
    )
    return copy
  }

  /** A response begins reading the copy. */
  const read = (copy: Copy): CopyReader => {
    copy.readers++
    copy.heldAt = now()
    let released = false
    review()
    return {
      live: copy.live,
      release() {
        if (released) return
        released = true
        copy.readers--
        copy.heldAt = now()
        if (!held(view(copy))) review()
      },
    }
  }

  return {
    /** `player:resolve` answered a song with this signed URL. */
    remember(ref: MediaRef, signedUrl: string, song: Song) {
      const k = keyString({ sourceId: ref.sourceId, songId: ref.songId, bitrate: ref.br })
      resolvedRecently.remember(k, { song, url: signedUrl, at: now() })
    },

    /**
     * Starts (or joins) the song's copy and answers it to one response, which releases it when done; or
     * undefined when it failed a moment ago.
     */
    fill(key: CacheKey): CopyReader | undefined {
      // Only the active source is asked (the network source answers any other 404).
      if (key.sourceId !== deps.activeSourceId()) return undefined
      const k = keyString(key)
      const copy = copies.get(k) ?? start(key, k)
      return copy && read(copy)
    },

    /** The player's song changed (its id; undefined: none): the copy of the song it left may stop. */
    playing(songId: string | undefined) {
      if (songId === playingId) return
      for (const copy of copies.values()) {
        if (current(copy)) copy.heldAt = now()
        if (copy.key.songId === songId) copy.played = true
      }
      playingId = songId
      review()
    },

    dispose() {
      if (recheck !== undefined) timers.clearTimeout(recheck)
      recheck = undefined
    },
  }
}
