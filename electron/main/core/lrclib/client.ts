import { z } from 'zod'
import { readCapped } from '../api/read-capped'
import type { LrclibLyrics, LrclibSong } from '@shared/ipc/discord-lrclib'
import { LRCLIB_RESULTS_MAX } from '@shared/ipc/discord-lrclib'

/** LRCLIB's public API (lrclib.net/docs); the tests point the client at a fake on loopback. */
export const LRCLIB_BASE_URL = 'https://lrclib.net'
export const LRCLIB_TIMEOUT_MS = 10_000
/** The most bytes one answer may have (a record is a few KiB; a search answer a few tens). */
export const LRCLIB_MAX_BYTES = 1_000_000
const LYRICS_MAX_CHARS = 200_000

export class LrclibError extends Error {}

const text = (max: number) =>
  z
    .string()
    .max(max)
    .nullish()
    .transform((v) => v ?? '')
const recordSchema = z.object({
  id: z.number().int().min(0),
  trackName: text(1000),
  artistName: text(1000),
  albumName: text(1000),
  duration: z
    .number()
    .min(0)
    .nullish()
    .transform((v) => v ?? 0),
  instrumental: z
    .boolean()
    .nullish()
    .transform((v) => v ?? false),
  plainLyrics: text(LYRICS_MAX_CHARS),
  syncedLyrics: text(LYRICS_MAX_CHARS),
})
const searchSchema = z.array(z.unknown()).max(1000)

/** A record read from LRCLIB, with nothing but the fields the lyrics view uses. */
export function parseRecord(value: unknown): LrclibLyrics {
  const r = recordSchema.parse(value)
  return {
    id: r.id,
    trackName: r.trackName,
    artistName: r.artistName,
    albumName: r.albumName,
    duration: r.duration,
    instrumental: r.instrumental,
    plainLyrics: r.plainLyrics,
    syncedLyrics: r.syncedLyrics,
  }
}

/**
 * `GET /api/get` (track, artist, album, duration in whole seconds; LRCLIB matches within ±2 s),
 * `GET /api/search` (track and artist) and `GET /api/get/{id}`, each with a `User-Agent` naming Cadence
 * and its version, a deadline and a byte cap. A 404 is "none"; anything else unexpected throws.
 */
export function createLrclibClient(deps: {
  fetch: typeof fetch
  userAgent: string
  baseUrl?: string
  timeoutMs?: number
  maxBytes?: number
}) {
  const base = (deps.baseUrl ?? LRCLIB_BASE_URL).replace(/\/+$/, '')
  const maxBytes = deps.maxBytes ?? LRCLIB_MAX_BYTES

  async function getJson(path: string, params: Record<string, string>): Promise<unknown> {
    const query = new URLSearchParams(params).toString()
    const url = `${base}${path}${query ? `?${query}` : ''}`
    let response: Response
    try {
      response = await deps.fetch(url, {
        headers: {
          'User-Agent': deps.userAgent,
          'Lrclib-Client': deps.userAgent,
          Accept: 'application/json',
        },
        redirect: 'error',
        signal: AbortSignal.timeout(deps.timeoutMs ?? LRCLIB_TIMEOUT_MS),
      })
    } catch (error) {
      throw new LrclibError(`LRCLIB could not be reached: ${String((error as Error)?.message ?? error)}`)
    }
    if (response.status === 404) {
      await response.body?.cancel().catch(() => undefined)
      return undefined
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined)
      throw new LrclibError(`LRCLIB answered ${response.status}`)
    }
    let body: Uint8Array
    try {
      body = await readCapped(response, maxBytes, 'LRCLIB')
    } catch (error) {
      throw new LrclibError(String((error as Error)?.message ?? error))
    }
    try {
      return JSON.parse(new TextDecoder().decode(body)) as unknown
    } catch {
      throw new LrclibError('LRCLIB answered something that is not JSON')
    }
  }

  const record = (value: unknown) => {
    const parsed = recordSchema.safeParse(value)
    if (!parsed.success) throw new LrclibError('LRCLIB answered a record of the wrong shape')
    return parseRecord(parsed.data)
  }

  return {
    async get(song: LrclibSong): Promise<LrclibLyrics | null> {
      const params: Record<string, string> = { track_name: song.track, artist_name: song.artist }
      if (song.album) params.album_name = song.album
      params.duration = String(Math.round(song.durationMs / 1000))
      const value = await getJson('/api/get', params)
      return value === undefined ? null : record(value)
    },
    async search(song: LrclibSong): Promise<LrclibLyrics[]> {
      const value = await getJson('/api/search', { track_name: song.track, artist_name: song.artist })
      if (value === undefined) return []
      const list = searchSchema.safeParse(value)
      if (!list.success) throw new LrclibError('LRCLIB answered a search of the wrong shape')
      // A record of the wrong shape among good ones is left out, not the whole answer.
      const out: LrclibLyrics[] = []
      for (const item of list.data) {
        const parsed = recordSchema.safeParse(item)
        if (parsed.success) out.push(parseRecord(parsed.data))
        if (out.length >= LRCLIB_RESULTS_MAX) break
      }
      return out
    },
    async byId(id: number): Promise<LrclibLyrics | null> {
      const value = await getJson(`/api/get/${id}`, {})
      return value === undefined ? null : record(value)
    },
  }
}
export type LrclibClient = ReturnType<typeof createLrclibClient>
