import { execFileSync } from 'node:child_process'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { withItunSmpb } from '../support/gapless-audio'

/**
 * The test signals of `bench:audio`'s sections on album boundaries, speed, crossfade and the equaliser,
 * made by ffmpeg (`aevalsrc`) into a music folder the reference data source serves, each song tagged
 * with its album so the server groups them as a person's rips would be.
 */

/** The gapless albums' rate: ripped from a CD. */
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

export type AlbumFormat = 'mp3' | 'm4a-itunes' | 'm4a'
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

const tags = (title: string, album: string, track?: string) => [
  ...['-map_metadata', '-1', '-metadata', `title=${title}`, '-metadata', `album=${album}`],
  ...['-metadata', 'artist=Bench', '-metadata', 'album_artist=Bench'],
  ...(track ? ['-metadata', `track=${track}`] : []),
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
  const expression = ALBUM_TONES.map((hz) => `${ALBUM_AMPLITUDE}*sin(2*PI*${hz}*t+${hz})`).join('+')
  const seconds = Math.ceil(ALBUM_CUTS[ALBUM_CUTS.length - 1] / ALBUM_RATE) + 1
  ffmpeg(['-f', 'lavfi', '-i', `aevalsrc=exprs='${expression}':s=${ALBUM_RATE}:d=${seconds}`, whole])
  for (const format of formats) {
    const folder = join(library, format)
    await mkdir(folder, { recursive: true })
    for (let n = 1; n < ALBUM_CUTS.length; n++) {
      const [from, to] = [ALBUM_CUTS[n - 1], ALBUM_CUTS[n]]
      const out = join(folder, `${n}.${format === 'mp3' ? 'mp3' : 'm4a'}`)
      const codec =
        format === 'mp3'
          ? ['-c:a', 'libmp3lame', '-b:a', '192k']
          : ['-c:a', 'aac', '-b:a', '192k', ...(format === 'm4a-itunes' ? ['-use_editlist', '0'] : [])]
      ffmpeg([
        ...['-i', whole, '-af', `atrim=start_sample=${from}:end_sample=${to},asetpts=PTS-STARTPTS`],
        ...['-ac', '2', '-fflags', '+bitexact'],
        ...tags(albumTrackTitle(format, n), ALBUM_FORMATS[format].album, `${n}/${ALBUM_CUTS.length - 1}`),
        ...codec,
        out,
      ])
      if (format === 'm4a-itunes') {
        // ffmpeg's AAC encoder primes 1024 samples; the padding fills the last frame (as iTunes says it).
        const length = to - from
        const padding = Math.ceil((1024 + length) / 1024) * 1024 - 1024 - length
        await writeFile(out, withItunSmpb(new Uint8Array(await readFile(out)), 1024, padding, length))
      }
    }
  }
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
