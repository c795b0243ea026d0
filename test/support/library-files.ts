import { execFileSync } from 'node:child_process'
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface TrackTags {
  title?: string
  artist?: string
  album?: string
  albumArtist?: string
  track?: number
  disc?: number
  compilation?: boolean
  date?: string
  genre?: string
  lyrics?: string
}

const CODECS: Record<string, string[]> = {
  mp3: ['-ar', '22050', '-c:a', 'libmp3lame', '-b:a', '32k', '-id3v2_version', '3'],
  flac: ['-ar', '22050', '-c:a', 'flac'],
  m4a: ['-ar', '22050', '-c:a', 'aac', '-b:a', '32k'],
  opus: ['-c:a', 'libopus', '-b:a', '24k'],
  ogg: ['-c:a', 'libopus', '-b:a', '24k'],
  wav: ['-ar', '22050', '-c:a', 'pcm_s16le'],
}

function tagArgs(tags: TrackTags): string[] {
  const keys: Record<string, string> = { albumArtist: 'album_artist' }
  return Object.entries(tags).flatMap(([k, v]) =>
    v === undefined ? [] : ['-metadata', `${keys[k] ?? k}=${v === true ? 1 : v}`],
  )
}

/** Runs ffmpeg writing `name` in a scratch folder, then copies the result to `path` (any bytes). */
function ffmpegTo(path: string | Buffer, ext: string, args: string[]): void {
  const scratch = mkdtempSync(join(tmpdir(), 'cadence-ffmpeg-'))
  try {
    const out = join(scratch, `out.${ext}`)
    execFileSync('ffmpeg', ['-v', 'error', '-y', ...args, out])
    copyFileSync(out, path)
  } finally {
    rmSync(scratch, { recursive: true, force: true })
  }
}

function extOf(path: string | Buffer): string {
  const name = path.toString('latin1')
  return name.slice(name.lastIndexOf('.') + 1).toLowerCase()
}

/**
 * A short tagged audio file made by ffmpeg (a sine tone whose pitch comes from `seed`, so files of other
 * seeds differ in their audio). The format follows the extension: .mp3, .flac, .m4a, .opus/.ogg, .wav.
 * `path` may be bytes (a name that is not UTF-8).
 */
export function makeTrack(path: string | Buffer, tags: TrackTags = {}, seed = 1, seconds = 1): void {
  const ext = extOf(path)
  ffmpegTo(path, ext, [
    ...['-f', 'lavfi', '-i', `sine=frequency=${200 + seed * 37}:duration=${seconds}`, '-ac', '1'],
    ...(CODECS[ext] ?? []),
    ...tagArgs(tags),
  ])
}

/** Rewrites a file's tags (ffmpeg, the audio stream copied), its audio bytes kept. */
export function retag(path: string, tags: TrackTags): void {
  const ext = extOf(path)
  ffmpegTo(path, ext, ['-i', path, '-c', 'copy', '-map_metadata', '0', ...tagArgs(tags)])
}

/** A 16×16 picture of one colour made by ffmpeg (the format follows the extension); answers its bytes. */
export function makePicture(path: string, color: string): Buffer {
  execFileSync('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `color=${color}:s=16x16`,
    '-frames:v',
    '1',
    path,
  ])
  return readFileSync(path)
}

/** Writes `out`: the MP3 `audio` with `picture` embedded as its front cover (ID3v2.3 APIC). */
export function embedCover(audio: string, picture: string, out: string): void {
  execFileSync('ffmpeg', [
    ...['-v', 'error', '-y', '-i', audio, '-i', picture, '-map', '0', '-map', '1'],
    ...['-c', 'copy', '-id3v2_version', '3', '-metadata:s:v', 'comment=Cover (front)'],
    out,
  ])
}
