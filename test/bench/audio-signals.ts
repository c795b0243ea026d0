import { execFileSync } from 'node:child_process'
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { ALBUM_CUTS, ALBUM_RATE, writeAlbumSignal, writeGaplessAlbum } from '../support/gapless-album'
import type { AlbumFormat } from '../support/gapless-album'

/**
 * The test signals of `bench:audio`'s sections on album boundaries (the album of
 * `test/support/gapless-album.ts`), speed, crossfade and the equaliser, made by ffmpeg (`aevalsrc`) into a music folder the reference data source serves, each song tagged
 * with its album so the server groups them as a person's rips would be.
 */

export { ALBUM_CUTS, ALBUM_PEAK, ALBUM_RATE, albumSignal } from '../support/gapless-album'
export type { AlbumFormat } from '../support/gapless-album'

export const ALBUM_FORMATS: Record<AlbumFormat, { album: string; label: string }> = {
  mp3: { album: 'Bench Gapless MP3', label: 'gapless MP3 album (LAME/Xing header)' },
  'm4a-itunes': { album: 'Bench Gapless AAC iTunSMPB', label: 'gapless AAC album (iTunSMPB, no edit list)' },
  m4a: { album: 'Bench Gapless AAC edit list', label: 'gapless AAC album (edit list)' },
}
export const albumTrackTitle = (format: AlbumFormat, n: number) => `${ALBUM_FORMATS[format].album} ${n}`

/** The speed song: a 1 kHz tone, and a 150 ms burst of 2.5 kHz every 0.5 s of the song. */
export const SPEED = { title: 'Speed Probe', hz: 1000, burstHz: 2500, period: 0.5, seconds: 40 }
/** The crossfade's songs, of two albums: a 600 Hz tone going out, a 900 Hz tone coming in, 10 s each. */
export const CROSSFADE = {
  out: { title: 'Crossfade Out', album: 'Bench Crossfade A', hz: 600 },
  in: { title: 'Crossfade In', album: 'Bench Crossfade B', hz: 900 },
  seconds: 10,
}
/** The sweep: 0.4 s steps of a −20 dBFS tone a third of an octave apart, 31.25 Hz to 16 kHz. */
export const SWEEP = { title: 'EQ Sweep', step: 0.4, steps: 28, amplitude: 0.1 }
export const sweepHz = (k: number) => 31.25 * 2 ** (k / 3)

function ffmpeg(args: string[]) {
  execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args], { stdio: 'pipe' })
}

const tags = (title: string, album: string) => [
  ...['-map_metadata', '-1', '-metadata', `title=${title}`, '-metadata', `album=${album}`],
  ...['-metadata', 'artist=Bench', '-metadata', 'album_artist=Bench'],
]

/** A FLAC song at 48 kHz from an `aevalsrc` expression. */
function flacSong(out: string, expression: string, seconds: number, title: string, album: string) {
  ffmpeg([
    ...['-f', 'lavfi', '-i', `aevalsrc=exprs='${expression}':s=48000:d=${seconds}`],
    ...['-ac', '2', ...tags(title, album), '-c:a', 'flac', '-sample_fmt', 's16', out],
  ])
}

/** Writes the music folder under `root` (its path returned): every song the sections play. */
export async function makeLibrary(root: string, formats: AlbumFormat[]): Promise<string> {
  const library = join(root, 'library')
  await mkdir(library, { recursive: true })
  // The albums: one signal written once, each track cut from it at its samples and encoded on its own.
  const whole = join(root, 'album-signal.wav')
  writeAlbumSignal(whole, Math.ceil(ALBUM_CUTS[ALBUM_CUTS.length - 1] / ALBUM_RATE) + 1)
  for (const format of formats)
    await writeGaplessAlbum(whole, join(library, format), format, ALBUM_CUTS, (n) => ({
      title: albumTrackTitle(format, n),
      album: ALBUM_FORMATS[format].album,
      artist: 'Bench',
    }))
  const speed = `0.25*sin(2*PI*${SPEED.hz}*t)+0.25*sin(2*PI*${SPEED.burstHz}*t)*lt(mod(t,${SPEED.period}),0.15)`
  flacSong(join(library, 'speed.flac'), speed, SPEED.seconds, SPEED.title, 'Bench Speed')
  for (const side of [CROSSFADE.out, CROSSFADE.in])
    flacSong(
      join(library, `${side.hz}.flac`),
      `0.25*sin(2*PI*${side.hz}*t)`,
      CROSSFADE.seconds,
      side.title,
      side.album,
    )
  const sweep = `${SWEEP.amplitude}*sin(2*PI*31.25*pow(2,floor(t/${SWEEP.step})/3)*t)`
  flacSong(join(library, 'sweep.flac'), sweep, SWEEP.step * SWEEP.steps, SWEEP.title, 'Bench Sweep')
  return library
}
