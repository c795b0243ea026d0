import { z } from 'zod'
import {
  HISTORY_IMPORT_MAX_CHARS,
  HISTORY_IMPORT_MAX_LISTENS,
  PLACEHOLDER_SONG_ID,
} from '@shared/ipc/history'
import type { Listen } from '@shared/ipc/history'
import { listenSchema } from '@shared/ipc/history-schemas'

/**
 * History as ListenBrainz JSON (listenbrainz.readthedocs.io, "JSON format"): the body of an `import`
 * submission, `{ listen_type: 'import', payload: [{ listened_at, track_metadata }] }`, listened_at in
 * seconds. What ListenBrainz has no field for (source, song and album ids, cover, the artists one by one)
 * rides in `additional_info` under `cadence_*` keys, so an export imports back whole. An import also
 * takes a bare array of listens (ListenBrainz's own export).
 */

export const MEDIA_PLAYER = 'Cadence'

export function toListenBrainz(listens: Iterable<Listen>): string {
  const payload = []
  for (const l of listens) {
    payload.push({
      listened_at: Math.floor(l.listenedAt / 1000),
      track_metadata: {
        artist_name: l.artists.join(', '),
        track_name: l.title,
        ...(l.album !== undefined ? { release_name: l.album } : {}),
        additional_info: {
          media_player: MEDIA_PLAYER,
          submission_client: MEDIA_PLAYER,
          duration_ms: l.durationMs,
          cadence_listened_at_ms: l.listenedAt,
          cadence_source_id: l.sourceId,
          cadence_song_id: l.songId,
          cadence_artists: l.artists,
          ...(l.albumId !== undefined ? { cadence_album_id: l.albumId } : {}),
          ...(l.cover !== undefined ? { cadence_cover: l.cover } : {}),
        },
      },
    })
  }
  return JSON.stringify({ listen_type: 'import', payload })
}

const entrySchema = z.object({
  listened_at: z.number().int().min(0).max(8.64e12),
  track_metadata: z.object({
    artist_name: z.string().min(1).max(1000),
    track_name: z.string().min(1).max(500),
    release_name: z.string().max(500).nullish(),
    additional_info: z
      .object({
        duration_ms: z.number().int().min(0).optional(),
        duration: z.number().min(0).optional(),
        cadence_listened_at_ms: z.number().int().min(0).optional(),
        cadence_source_id: z.string().optional(),
        cadence_song_id: z.string().optional(),
        cadence_artists: z.array(z.string()).optional(),
        cadence_album_id: z.string().optional(),
        cadence_cover: z.string().optional(),
      })
      .loose()
      .nullish(),
  }),
})

/** Why an import was refused (said to the person as it is). */
export class ImportRefused extends Error {}

/** Reads an export into listens; anything wrong refuses the whole file with the reason. */
export function fromListenBrainz(text: string): Listen[] {
  if (text.length > HISTORY_IMPORT_MAX_CHARS) {
    throw new ImportRefused(
      `The file is too large to import (over ${HISTORY_IMPORT_MAX_CHARS / 1024 / 1024} MiB)`,
    )
  }
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch {
    throw new ImportRefused('The file is not JSON')
  }
  const list = Array.isArray(data) ? data : (data as { payload?: unknown } | null)?.payload
  if (!Array.isArray(list)) throw new ImportRefused('The file has no listens (no "payload" list)')
  if (list.length > HISTORY_IMPORT_MAX_LISTENS) {
    throw new ImportRefused(
      `The file has ${list.length} listens; at most ${HISTORY_IMPORT_MAX_LISTENS} are imported at once`,
    )
  }
  const listens: Listen[] = []
  for (const [index, raw] of list.entries()) {
    const parsed = entrySchema.safeParse(raw)
    if (!parsed.success) throw new ImportRefused(`Listen ${index + 1} is not a ListenBrainz listen`)
    const { listened_at, track_metadata: t } = parsed.data
    const info = t.additional_info ?? {}
    const listen: Listen = {
      listenedAt: info.cadence_listened_at_ms ?? listened_at * 1000,
      sourceId: info.cadence_source_id || 'listenbrainz',
      songId: info.cadence_song_id || `${t.artist_name} — ${t.track_name}`.slice(0, 200),
      title: t.track_name,
      artists: info.cadence_artists ?? [t.artist_name],
      ...(t.release_name ? { album: t.release_name } : {}),
      ...(info.cadence_album_id ? { albumId: info.cadence_album_id } : {}),
      durationMs: Math.round(info.duration_ms ?? (info.duration ?? 0) * 1000),
      ...(info.cadence_cover ? { cover: info.cadence_cover } : {}),
    }
    const checked = listenSchema.safeParse(listen)
    if (!checked.success) throw new ImportRefused(`Listen ${index + 1} has a field out of bounds`)
    if (listen.songId === PLACEHOLDER_SONG_ID) continue
    listens.push(checked.data)
  }
  return listens
}
