import type { Song } from '@shared/api/models'
import type { MediaRef } from '@shared/player/media-url'
import type { Logger } from '../log'
import { SIGNED_URL_MAX_AGE_MS } from '../media'
import type { CacheKey, LiveFill, MediaCache } from '../media-cache'
import { keyString, MediaCacheError } from '../media-cache'

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
  log: Logger
}

/**
 * Played songs copied into the cache: the media scheme starts the copy on the song's first request and
 * serves the player from it as it arrives, so the first play fetches the song once. The copy uses the
 * signed URL `player:resolve` just got (no second `/song/detail`); its errors are only logged (playing
 * goes on from the network), and a song whose copy failed is not tried again for a minute.
 */
export function createPlayedCopies(deps: PlayedCopiesDeps) {
  const { cache, now } = deps
  const resolvedRecently = new Map<string, { song: Song; url: string; at: number }>()
  const failedAt = new Map<string, number>()

  const origin = async (key: CacheKey, k: string): Promise<{ song: Song; url: string }> => {
    const recent = resolvedRecently.get(k)
    resolvedRecently.delete(k)
    if (recent && now() - recent.at < SIGNED_URL_MAX_AGE_MS) return recent
    if (key.sourceId !== deps.activeSourceId()) {
      throw new MediaCacheError('cancelled', 'Its data source is not the active one')
    }
    const song = await deps.detail(key)
    if (song.privilege?.playable === false || !song.meta?.url) {
      throw new MediaCacheError('http', 'The data source has no audio for this song', 404)
    }
    return { song, url: song.meta.url }
  }

  return {
    /** `player:resolve` answered a song with this signed URL. */
    remember(ref: MediaRef, signedUrl: string, song: Song) {
      const k = keyString({ sourceId: ref.sourceId, songId: ref.songId, bitrate: ref.br })
      resolvedRecently.delete(k)
      resolvedRecently.set(k, { song, url: signedUrl, at: now() })
      // The oldest go first (a Map keeps insertion order).
      for (const old of resolvedRecently.keys()) {
        if (resolvedRecently.size <= RECENT_RESOLVES) break
        resolvedRecently.delete(old)
      }
    },

    /** Starts (or joins) the song's copy and answers it, or undefined when it failed a moment ago. */
    fill(key: CacheKey): LiveFill | undefined {
      // Only the active source is asked (the network source answers any other 404).
      if (key.sourceId !== deps.activeSourceId()) return undefined
      const k = keyString(key)
      const failed = failedAt.get(k)
      if (failed !== undefined && now() - failed < COPY_RETRY_MS) return undefined
      failedAt.delete(k)
      let song: Song | undefined
      void cache
        .fill(key, async () => {
          const found = await origin(key, k)
          song = found.song
          return { url: found.url, size: found.song.meta?.size, md5: found.song.meta?.md5 }
        })
        .then(
          async () => {
            deps.onCached()
            // Its details and lyrics too: it plays and sings offline, and starts without /song/detail.
            if (song) await deps.keep(key, song).catch(() => undefined)
          },
          (error: unknown) => {
            if (failedAt.size > RECENT_RESOLVES) failedAt.clear()
            failedAt.set(k, now())
            deps.log.info('a played song was not cached', {
              songId: key.songId,
              reason: error instanceof MediaCacheError ? error.reason : String(error),
            })
          },
        )
      return cache.live(key)
    },
  }
}
