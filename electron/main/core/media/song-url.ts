import type { Id } from '@shared/api/models'
import { isUrlFresh, playableUrl } from '@shared/player/signed-url'
import type { MediaRef } from '@shared/player/media-url'
import type { ApiClient } from '../api/client'
import type { ActiveCall, SourceCall } from '../sources/active'
import { MediaError } from './source'

export { playableUrl, SIGNED_URL_MAX_AGE_MS } from '@shared/player/signed-url'

/** A remembered signed URL and when it was resolved. */
export interface KnownUrl {
  url: string
  at: number
}

/**
 * Signed URLs remembered by song and bitrate, used while younger than `SIGNED_URL_MAX_AGE_MS`: the oldest
 * go first past `max`; `resolve` asks once however many wait for the same song.
 */
export function createUrlCache<T extends KnownUrl>(options: { now: () => number; max?: number }) {
  const known = new Map<string, T>()
  const inflight = new Map<string, Promise<T>>()
  const max = options.max ?? Number.POSITIVE_INFINITY
  const fresh = (value: T | undefined) => (value && isUrlFresh(value.at, options.now()) ? value : undefined)

  const remember = (key: string, value: T) => {
    known.delete(key)
    known.set(key, value)
    // The oldest go first (a Map keeps insertion order).
    for (const old of known.keys()) {
      if (known.size <= max) break
      known.delete(old)
    }
  }

  return {
    remember,
    /** The remembered URL if it is still young enough. */
    get: (key: string): T | undefined => fresh(known.get(key)),
    /** The remembered URL if it is still young enough, forgotten either way (used once). */
    take(key: string): T | undefined {
      const value = known.get(key)
      known.delete(key)
      return fresh(value)
    },
    /** The URL `run` resolves, remembered; one request at a time per key. */
    resolve(key: string, run: () => Promise<T>): Promise<T> {
      const pending = inflight.get(key)
      if (pending) return pending
      const request = run()
        .then((value) => {
          remember(key, value)
          return value
        })
        .finally(() => inflight.delete(key))
      inflight.set(key, request)
      return request
    },
  }
}

export const refKey = (ref: MediaRef) => `${ref.sourceId}\n${ref.songId}\n${ref.br}`

/**
 * The media scheme's resolver: `/song/detail` of the song at its bitrate on the data source the address
 * names (the active one through `call`, another one through `callOn`), and its signed URL, or a
 * `MediaError` (404) when that source cannot be asked or the song has no audio to play.
 */
export function createSongUrlResolver(deps: {
  call: ActiveCall
  callOn?: SourceCall
  activeSourceId?: () => string
  userId: (sourceId?: string) => Id | undefined
}): (ref: MediaRef) => Promise<string> {
  return (ref) => {
    const run = async (api: ApiClient, sourceId: string) => {
      if (sourceId !== ref.sourceId) throw new MediaError(404, 'That data source is no longer the active one')
      const song = await api.songDetail(ref.songId, deps.userId(sourceId), ref.br)
      const url = playableUrl(song)
      if (!url)
        throw new MediaError(404, song.privilege?.reason || 'The data source has no audio for this song')
      return url
    }
    const { callOn, activeSourceId } = deps
    if (callOn && activeSourceId && ref.sourceId !== activeSourceId()) return callOn(ref.sourceId, run)
    return deps.call(run)
  }
}
