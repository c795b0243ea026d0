import type { Song } from '@shared/api/models'
import type { SourcedSong } from '@shared/player/media-url'
import { chooseBitrate } from '@shared/player/quality'
import { isUrlFresh, playableUrl, SIGNED_URL_MAX_AGE_MS } from '@shared/player/signed-url'
import type { Quality } from '@shared/settings'
import { rememberReplayGain } from './audio/replay-gain'

/** A resolved URL older than this is resolved again before use (signed media URLs expire). */
export const URL_MAX_AGE_MS = SIGNED_URL_MAX_AGE_MS

export interface Resolution {
  song: Song
  url?: string
  br: number
  /** When it was resolved (ms since epoch). */
  at: number
}

/**
 * The playback engine's resolving (`engine.ts`): `player:resolve` with the chosen bitrate, cached with
 * its age (one request at a time per song; `fresh` resolves again). `known` answers a cached, fresh
 * resolution at once (no promise), so a play of a song resolved ahead starts in the task that asks it.
 */
export function createResolveCache(deps: {
  resolve: (args: { id: Song['id']; br: number; sourceId?: string }) => Promise<Song>
  quality: () => Quality
}) {
  const resolutions = new Map<string, Resolution>()
  const inflight = new Map<string, Promise<Resolution>>()

  function keyOf(song: Song) {
    // A song of another data source (a download) is asked for with its source, and kept apart.
    const sourceId = (song as SourcedSong).sourceId
    const id = sourceId ? `${sourceId}\n${song.id}` : String(song.id)
    return { sourceId, id, br: chooseBitrate(song.privilege, deps.quality()) }
  }

  function known(song: Song, { id, br } = keyOf(song)): Resolution | undefined {
    const kept = resolutions.get(id)
    return kept && kept.br === br && isUrlFresh(kept.at, Date.now()) ? kept : undefined
  }

  function resolveSong(song: Song, fresh = false): Promise<Resolution> {
    const key = keyOf(song)
    const { sourceId, id, br } = key
    const kept = fresh ? undefined : known(song, key)
    if (kept) return Promise.resolve(kept)
    const pending = inflight.get(id)
    if (!fresh && pending) return pending
    const at = Date.now()
    const request = deps
      .resolve(sourceId ? { id: song.id, br, sourceId } : { id: song.id, br })
      .then((resolved): Resolution => {
        const resolution = { song: resolved, url: resolved.meta?.url || undefined, br, at }
        rememberReplayGain(resolution.url, resolved.meta?.replayGain)
        // A song that could not play now (offline and not on this computer, no rights, no URL) is asked
        // again next time: kept, its answer would skip it even after the data source is back.
        if (playableUrl(resolved)) resolutions.set(id, resolution)
        else resolutions.delete(id)
        return resolution
      })
      .finally(() => {
        if (inflight.get(id) === request) inflight.delete(id)
      })
    inflight.set(id, request)
    return request
  }
  return Object.assign(resolveSong, { known })
}
