import type { MediaRef } from '@shared/player/media-url'
import type { Logger } from '../log'
import type { MediaOpenRequest, MediaSource } from './source'
import { MediaError } from './source'
import type { CacheKey, CachedFile } from '../media-cache'
import type { Timers } from '../ports'
import { realTimers } from '../ports'
import { fileResponse } from './file-response'
import { liveResponse } from './live-response'
import type { CopyReader } from './played-copies'

export { fileResponse, parseRange } from './file-response'

export interface CachedSourceDeps {
  /** The network source: what plays when the cache has no file and no copy to read. */
  inner: MediaSource
  /** A complete, checked file for the song, or undefined (a damaged one is dropped, not served). */
  playable: (key: CacheKey) => Promise<CachedFile | undefined>
  /**
   * Starts (or joins) the song's copy into the cache, one fetch however many ask, and answers it to this
   * request, which releases it when it reads it no more; undefined when the cache will not take it now
   * (it failed a moment ago).
   */
  fill: (key: CacheKey) => CopyReader | undefined
  isOffline: () => boolean
  log: Logger
  timers?: Timers
}

/** The message the media scheme answers (503) for a song that is not on this computer while offline. */
export const NOT_OFFLINE_MEDIA = 'Not available offline'

/**
 * The media scheme's source with the cache in front: a song on disk (played before, or downloaded) is
 * served from its file with Range and no request to the data source; any other is copied into the cache
 * and the player is served from that copy as it arrives (`live-response.ts`), so the first play fetches
 * the song once. A range well ahead of the copy (a seek), or a copy that cannot be made, is streamed from
 * the network as before. Offline, a song that is not on disk is a 503 (the player re-resolves it and
 * skips it with the reason).
 */
export function createCachedSource(deps: CachedSourceDeps): MediaSource {
  const timers = deps.timers ?? realTimers
  return {
    async open(ref: MediaRef, request: MediaOpenRequest): Promise<Response> {
      const key: CacheKey = { sourceId: ref.sourceId, songId: ref.songId, bitrate: ref.br }
      const file = await deps.playable(key)
      if (file) return fileResponse(file, request)
      if (deps.isOffline()) throw new MediaError(503, NOT_OFFLINE_MEDIA)
      const reader = deps.fill(key)
      const answer = reader ? await liveResponse(reader, ref, request, deps.inner, timers) : undefined
      return answer ?? deps.inner.open(ref, request)
    },
  }
}
