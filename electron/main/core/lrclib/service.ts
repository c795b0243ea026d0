import type { LrclibAnswer, LrclibLyrics, LrclibSong } from '@shared/ipc/discord-lrclib'
import type { Logger } from '../log'
import type { LrclibClient } from './client'
import type { KeptLyrics, LyricsKeep } from './keep'

/** LRCLIB had nothing for a song: asked again after a week (the answer is kept till then). */
export const LRCLIB_NONE_RETRY_MS = 7 * 24 * 3600_000
/** LRCLIB matches durations within ±2 s; a search result further off is not taken by itself. */
const DURATION_TOLERANCE_S = 2
const MAX_REMEMBERED_SEARCHES = 50

const keyOf = (song: { sourceId: string; songId: string | number }) =>
  `${song.sourceId}:${String(song.songId)}`

/** Synced lyrics first, then plain; instrumental records count as an answer. */
function rank(lyrics: LrclibLyrics): number {
  return lyrics.syncedLyrics ? 0 : lyrics.instrumental ? 1 : lyrics.plainLyrics ? 2 : 3
}
const useful = (lyrics: LrclibLyrics) => rank(lyrics) < 3

/**
 * Lyrics from LRCLIB for a song its source gives none (or only plain text) for: the kept copy first (so
 * offline they still show), else `/api/get`, then `/api/search` when that finds nothing or only plain
 * text (a synced result of about the same length is preferred). Whatever is found is kept with the song.
 * Nothing is asked while the setting is not on.
 */
export function createLrclibService(deps: {
  client: LrclibClient
  keep: LyricsKeep
  enabled: () => boolean
  /** A private session: nothing is asked of LRCLIB (the kept copies still show). */
  privateSession: () => boolean
  now: () => number
  log: Logger
}) {
  const searches = new Map<string, LrclibLyrics[]>()

  const answer = (kept: KeptLyrics): LrclibAnswer =>
    kept.lyrics ? { status: 'found', lyrics: kept.lyrics, hidden: kept.hidden } : { status: 'none' }

  async function keep(key: string, kept: KeptLyrics): Promise<LrclibAnswer> {
    await deps.keep.write(key, kept).catch((error: unknown) =>
      deps.log.warn('lrclib: could not keep the lyrics', {
        error: String((error as Error)?.message ?? error),
      }),
    )
    return answer(kept)
  }

  async function search(song: LrclibSong): Promise<LrclibLyrics[]> {
    const found = (await deps.client.search(song)).filter(useful)
    const seconds = song.durationMs / 1000
    const near = (l: LrclibLyrics) => (Math.abs(l.duration - seconds) <= DURATION_TOLERANCE_S ? 0 : 1)
    const sorted = found
      .map((l, i) => ({ l, i }))
      .sort((a, b) => near(a.l) - near(b.l) || rank(a.l) - rank(b.l) || a.i - b.i)
      .map(({ l }) => l)
    const key = keyOf(song)
    searches.delete(key)
    searches.set(key, sorted)
    for (const old of [...searches.keys()].slice(0, Math.max(0, searches.size - MAX_REMEMBERED_SEARCHES))) {
      searches.delete(old)
    }
    return sorted
  }

  async function find(song: LrclibSong): Promise<LrclibLyrics | null> {
    const exact = await deps.client.get(song)
    if (exact && rank(exact) <= 1) return exact
    const seconds = song.durationMs / 1000
    const results = await search(song)
    const synced = results.find(
      (l) => l.syncedLyrics && Math.abs(l.duration - seconds) <= DURATION_TOLERANCE_S,
    )
    if (synced) return synced
    if (exact && useful(exact)) return exact
    return results.find((l) => Math.abs(l.duration - seconds) <= DURATION_TOLERANCE_S) ?? null
  }

  return {
    async lookup(song: LrclibSong): Promise<LrclibAnswer> {
      if (!deps.enabled()) return { status: 'off' }
      const key = keyOf(song)
      const kept = await deps.keep.read(key)
      if (kept && (kept.lyrics || deps.now() - kept.at < LRCLIB_NONE_RETRY_MS)) return answer(kept)
      if (deps.privateSession()) return kept ? answer(kept) : { status: 'unavailable' }
      try {
        const found = await find(song)
        return await keep(key, { lyrics: found, hidden: false, at: deps.now() })
      } catch (error) {
        deps.log.info('lrclib: lookup failed', { error: String((error as Error)?.message ?? error) })
        return kept ? answer(kept) : { status: 'unavailable' }
      }
    },
    /** The search results for "pick another" (synced first, those of about the song's length first). */
    async results(song: LrclibSong): Promise<LrclibLyrics[]> {
      if (!deps.enabled() || deps.privateSession()) return []
      return search(song)
    },
    async choose(song: LrclibSong, id: number): Promise<LrclibAnswer> {
      if (!deps.enabled()) return { status: 'off' }
      if (deps.privateSession()) return { status: 'unavailable' }
      const picked = searches.get(keyOf(song))?.find((l) => l.id === id) ?? (await deps.client.byId(id))
      if (!picked) return { status: 'none' }
      return keep(keyOf(song), { lyrics: picked, hidden: false, at: deps.now() })
    },
    async hide(key: { sourceId: string; songId: string | number }, hidden: boolean): Promise<LrclibAnswer> {
      const kept = await deps.keep.read(keyOf(key))
      if (!kept) return { status: 'none' }
      return keep(keyOf(key), { ...kept, hidden })
    },
  }
}
export type LrclibService = ReturnType<typeof createLrclibService>
