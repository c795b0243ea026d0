import { readFile, stat } from 'node:fs/promises'
import { parseFromTokenizer, type IAudioMetadata } from 'music-metadata'
import * as strtok3 from 'strtok3'
import { formatLrcTime } from '@shared/lyrics'
import type { CachedFile } from './cached-file'
import type { RawPath } from './paths'

/** What the importer keeps of one file's tags. */
export interface TrackInfo {
  title: string | undefined
  artists: string[]
  albumArtist: string | undefined
  album: string | undefined
  disc: number
  track: number
  year: number | undefined
  compilation: boolean
  durationMs: number
  bitrate: number
  /** Timed lyrics (sidecar `.lrc`, SYLT, timed text), else the unsynced text of USLT / `LYRICS` / `©lyr`. */
  lyrics: string | undefined
  genre: string | undefined
  replayGain: ReplayGainTags | undefined
  picture: { mime: string; data: Uint8Array } | undefined
}

/** ReplayGain tags (dB; peaks as linear sample ratios), kept as the song's first gain until it is measured. */
export interface ReplayGainTags {
  trackGain: number
  trackPeak?: number
  albumGain?: number
  albumPeak?: number
}

/**
 * A file's tags and stream facts with music-metadata, opened by its exact bytes (not-UTF-8 names too).
 * Given the file opened already (`CachedFile`), its reads are answered from the blocks that holds.
 */
export async function readMetadata(path: RawPath, mime: string, file?: CachedFile): Promise<IAudioMetadata> {
  // strtok3 opens the path as given (a Buffer too); the type comes from the MIME type, not the name.
  // `fromFile` and `FileTokenizer` are in its Node entry point, which the type resolution (the "default"
  // condition) misses.
  const { fromFile, FileTokenizer } = strtok3 as unknown as {
    fromFile(path: RawPath, options: { fileInfo: { mimeType: string } }): Promise<strtok3.ITokenizer>
    FileTokenizer: new (
      handle: CachedFile,
      options: { fileInfo: { path: RawPath; size: number; mimeType: string } },
    ) => strtok3.ITokenizer
  }
  const tokenizer = file
    ? new FileTokenizer(file, { fileInfo: { path, size: file.size, mimeType: mime } })
    : await fromFile(path, { fileInfo: { mimeType: mime } })
  try {
    return await parseFromTokenizer(tokenizer, { duration: true, skipCovers: false })
  } finally {
    await tokenizer.close()
  }
}

/** The sidecar `.lrc` beside a file (same name; the walk found it), with its mtime. */
export async function sidecarLyrics(
  lrc: RawPath | undefined,
): Promise<{ text: string; mtime: number } | undefined> {
  if (!lrc) return undefined
  try {
    const st = await stat(lrc)
    if (!st.isFile() || st.size > 1024 * 1024) return undefined
    return {
      text: (await readFile(lrc, 'utf8')).replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n'),
      mtime: st.mtimeMs,
    }
  } catch {
    return undefined
  }
}

interface TagLyrics {
  text?: string
  syncText?: Array<{ text: string; timestamp?: number }>
}

export function tagLyrics(lyrics: unknown): string | undefined {
  if (!Array.isArray(lyrics)) return undefined
  for (const l of lyrics as Array<TagLyrics | string>) {
    if (typeof l === 'string') {
      if (/\[\d+:\d+/.test(l)) return l
      continue
    }
    if (l.syncText && l.syncText.length > 0) {
      return l.syncText
        .filter((s) => typeof s.timestamp === 'number')
        .map((s) => formatLrcTime(s.timestamp as number) + s.text)
        .join('\n')
    }
    if (l.text && /\[\d+:\d+/.test(l.text)) return l.text
  }
  return undefined
}

/** Unsynced lyrics larger than this are left out (a tag is not a book). */
const PLAIN_LYRICS_MAX = 64 * 1024

/**
 * The unsynced lyrics of a file: USLT, Vorbis `LYRICS`/`UNSYNCEDLYRICS` and MP4 `©lyr` (music-metadata's
 * `common.lyrics`), else an ID3 TXXX frame named so (what ffmpeg writes for `-metadata lyrics=`).
 */
export function plainLyrics(meta: IAudioMetadata): string | undefined {
  const texts: unknown[] = (meta.common.lyrics ?? []).map((l) => (typeof l === 'string' ? l : l.text))
  for (const tags of Object.values(meta.native)) {
    for (const tag of tags) {
      if (/^TXXX:(?:USLT|LYRICS|UNSYNCEDLYRICS)$/i.test(tag.id)) texts.push(tag.value)
    }
  }
  for (const text of texts) {
    if (typeof text !== 'string') continue
    const clean = text
      .replace(/^\uFEFF/, '')
      .replace(/\r\n?/g, '\n')
      .trim()
    if (clean && clean.length <= PLAIN_LYRICS_MAX) return clean
  }
  return undefined
}

const dB = (v: { dB: number } | undefined, limit: number) =>
  v && Number.isFinite(v.dB) && Math.abs(v.dB) <= limit ? Math.round(v.dB * 100) / 100 : undefined
const ratio = (v: { ratio: number } | undefined) =>
  v && Number.isFinite(v.ratio) && v.ratio > 0 && v.ratio <= 10 ? Math.round(v.ratio * 1e6) / 1e6 : undefined

/** ReplayGain from REPLAYGAIN_* (Vorbis, APE), ID3 TXXX and MP4 `----:com.apple.iTunes:replaygain_*`. */
export function replayGain(meta: IAudioMetadata): ReplayGainTags | undefined {
  const c = meta.common
  const trackGain = dB(c.replaygain_track_gain, 60)
  if (trackGain === undefined) return undefined
  const out: ReplayGainTags = { trackGain }
  const trackPeak = ratio(c.replaygain_track_peak)
  const albumGain = dB(c.replaygain_album_gain, 60)
  const albumPeak = ratio(c.replaygain_album_peak)
  if (trackPeak !== undefined) out.trackPeak = trackPeak
  if (albumGain !== undefined) out.albumGain = albumGain
  if (albumPeak !== undefined) out.albumPeak = albumPeak
  return out
}

/** The artist before "feat."/"ft."/"featuring": who an album of that artist's songs belongs to. */
export function primaryArtist(name: string): string {
  return (
    name
      .split(/\s+(?:feat\.?|ft\.?|featuring)\s+/i)[0]
      .replace(/[\s(]+$/, '')
      .trim() || name
  )
}

export function trackInfo(meta: IAudioMetadata, size: number, lyricsFile?: string): TrackInfo {
  const { common, format } = meta
  const seconds = format.duration ?? 0
  const artists = (common.artists && common.artists.length > 0 ? common.artists : [common.artist ?? ''])
    .map((a) => a.trim())
    .filter(Boolean)
  const picture = common.picture?.[0]
  return {
    title: common.title?.trim() || undefined,
    artists: artists.length > 0 ? artists : ['Unknown Artist'],
    albumArtist: common.albumartist?.trim() || undefined,
    album: common.album?.trim() || undefined,
    disc: common.disk?.no ?? 0,
    track: common.track?.no ?? 0,
    year: common.year,
    compilation: common.compilation === true,
    durationMs: Math.round(seconds * 1000),
    bitrate: Math.round(format.bitrate ?? (size * 8) / (seconds || 1)),
    lyrics: lyricsFile || tagLyrics(common.lyrics) || plainLyrics(meta),
    genre:
      (common.genre ?? [])
        .map((g) => g.trim())
        .filter(Boolean)
        .join(', ')
        .slice(0, 200) || undefined,
    replayGain: replayGain(meta),
    picture:
      picture && picture.data.length < 10 * 1024 * 1024
        ? { mime: picture.format.startsWith('image/') ? picture.format : 'image/jpeg', data: picture.data }
        : undefined,
  }
}
