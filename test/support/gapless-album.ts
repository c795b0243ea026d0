import { execFileSync } from 'node:child_process'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { withItunSmpb } from './gapless-audio'

/**
 * An album ripped gaplessly, as `bench:audio`'s gapless-album section and the music-folder e2e test
 * play it: one continuous signal (twelve tones) cut into tracks at samples that are no codec frame
 * boundary, each track encoded on its own by ffmpeg as MP3 (its LAME/Xing header) or AAC in MP4 (iTunes'
 * `iTunSMPB` and no edit list, or ffmpeg's edit list), tagged with its album and track number.
 */

/** The albums' rate: ripped from a CD. */
export const ALBUM_RATE = 44100
/**
 * Twelve tones of unrelated frequencies (each its own phase; in hundredths of a hertz, so the sum
 * repeats only every 100 s): unlike a single sine, 40 ms of it match no other place within 300 ms
 * (normalised correlation 0.75 at most), so where a stretch is heard says how much time a boundary
 * added, not only its phase.
 */
const ALBUM_TONES = [
  131.37, 229.71, 317.93, 443.19, 541.87, 673.31, 811.73, 997.13, 1223.97, 1499.29, 1811.11, 2203.67,
]
const ALBUM_AMPLITUDE = 0.03
/** The albums' signal at time `t` (s), continuous over all its tracks. */
export const albumSignal = (t: number) =>
  ALBUM_TONES.reduce((sum, hz) => sum + ALBUM_AMPLITUDE * Math.sin(2 * Math.PI * hz * t + hz), 0)
/** The albums' signal's peak (over its first 10 s). */
export const ALBUM_PEAK = (() => {
  let peak = 0
  for (let i = 0; i < 10 * ALBUM_RATE; i++) peak = Math.max(peak, Math.abs(albumSignal(i / ALBUM_RATE)))
  return peak
})()
/** Where the albums' tracks begin and the last ends (samples): none on an MP3 (1152) or AAC (1024) frame. */
export const ALBUM_CUTS = [0, 220_537, 431_111, 662_399, 881_123]

/** `m4a-itunes`: AAC with `iTunSMPB` and no edit list; `m4a`: AAC with ffmpeg's edit list. */
export type AlbumFormat = 'mp3' | 'm4a-itunes' | 'm4a'

function ffmpeg(args: string[]) {
  execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args], { stdio: 'pipe' })
}

/** Writes the albums' signal as one WAV at `path` (44.1 kHz mono), `seconds` long. */
export function writeAlbumSignal(path: string, seconds: number): void {
  const expression = ALBUM_TONES.map((hz) => `${ALBUM_AMPLITUDE}*sin(2*PI*${hz}*t+${hz})`).join('+')
  ffmpeg(['-f', 'lavfi', '-i', `aevalsrc=exprs='${expression}':s=${ALBUM_RATE}:d=${seconds}`, path])
}

/** One track's tags: its title, album and artist (written as the album artist too). */
export interface AlbumTrackTags {
  title: string
  album: string
  artist: string
}

/**
 * Writes an album into `folder` (`<n>.mp3` or `<n>.m4a`): track n is the samples `[cuts[n-1], cuts[n])`
 * of `signal` (a WAV from `writeAlbumSignal`), encoded on its own as `format` (stereo, 192 kbit/s),
 * tagged `tags(n)` and `n/<tracks>`. Answers the files' paths in track order.
 */
export async function writeGaplessAlbum(
  signal: string,
  folder: string,
  format: AlbumFormat,
  cuts: readonly number[],
  tags: (n: number) => AlbumTrackTags,
): Promise<string[]> {
  await mkdir(folder, { recursive: true })
  const files: string[] = []
  for (let n = 1; n < cuts.length; n++) {
    const [from, to] = [cuts[n - 1], cuts[n]]
    const out = join(folder, `${n}.${format === 'mp3' ? 'mp3' : 'm4a'}`)
    const codec =
      format === 'mp3'
        ? ['-c:a', 'libmp3lame', '-b:a', '192k']
        : ['-c:a', 'aac', '-b:a', '192k', ...(format === 'm4a-itunes' ? ['-use_editlist', '0'] : [])]
    const { title, album, artist } = tags(n)
    ffmpeg([
      ...['-i', signal, '-af', `atrim=start_sample=${from}:end_sample=${to},asetpts=PTS-STARTPTS`],
      ...['-ac', '2', '-fflags', '+bitexact'],
      ...['-map_metadata', '-1', '-metadata', `title=${title}`, '-metadata', `album=${album}`],
      ...['-metadata', `artist=${artist}`, '-metadata', `album_artist=${artist}`],
      ...['-metadata', `track=${n}/${cuts.length - 1}`],
      ...codec,
      out,
    ])
    if (format === 'm4a-itunes') {
      // ffmpeg's AAC encoder primes 1024 samples; the padding fills the last frame (as iTunes says it).
      const length = to - from
      const padding = Math.ceil((1024 + length) / 1024) * 1024 - 1024 - length
      await writeFile(out, withItunSmpb(new Uint8Array(await readFile(out)), 1024, padding, length))
    }
    files.push(out)
  }
  return files
}
