import type { Id, Song } from '@shared/api/models'
import { mediaUrl } from '@shared/player/media-url'
import type { MediaRef } from '@shared/player/media-url'
import type { Logger } from '../log'
import type { SourceFetch } from '../net'
import type { ActiveCall, SourceCall } from '../sources/active'
import type { CoverSource } from './cover'
import { createMediaHandler } from './handler'
import { createNetworkSource } from './network'
import { createSongUrlResolver } from './song-url'
import type { MediaSource } from './source'

export interface MediaWiringDeps {
  call: ActiveCall
  /** A call to another data source than the active one (a queued song of that source). */
  callOn?: SourceCall
  userId: (sourceId?: string) => Id | undefined
  /** The fetch for what a source names, under that source's policy. */
  fetchFor: SourceFetch
  activeSourceId: () => string
  /** The cache in front of the network source (`offline.mediaSource`). */
  cached: (network: MediaSource) => MediaSource
  /** Covers kept on disk. */
  covers: CoverSource
  /** `player:resolve` answered a song with this signed URL: its copy into the cache needs no second ask. */
  rememberCopy: (ref: MediaRef, signedUrl: string, song: Song) => void
  log: Logger
}

/**
 * The media scheme wired (createCore's part): main resolves (and re-resolves) the signed URL and streams
 * it to the renderer, with the cache in front; a cover not kept is fetched now under the active source's
 * policy, for the renderer to read its pixels.
 */
export function wireMedia(deps: MediaWiringDeps) {
  const network = createNetworkSource({
    fetchFor: deps.fetchFor,
    resolve: createSongUrlResolver({
      call: deps.call,
      callOn: deps.callOn,
      activeSourceId: deps.activeSourceId,
      userId: deps.userId,
    }),
  })
  const media = createMediaHandler({
    source: deps.cached(network),
    covers: deps.covers,
    coverFetch: { sourceId: deps.activeSourceId, fetchFor: deps.fetchFor },
    log: deps.log,
  })
  return {
    media,
    /**
     * The address the renderer plays a resolved song from (`player:resolve`'s `mediaUrl`): the network
     * source and the song's copy remember its signed URL, so the first play asks `/song/detail` once.
     */
    resolved(ref: MediaRef, signedUrl: string, song: Song): string {
      network.remember(ref, signedUrl)
      deps.rememberCopy(ref, signedUrl, song)
      return mediaUrl(ref)
    },
  }
}
