import { loadavg } from 'node:os'
import type { Song } from '@shared/api/models'
import { DEFAULT_SETTINGS } from '@shared/settings'
import { startApp } from '../e2e/harness'
import type { App } from '../e2e/harness'
import { playSongs, songDetail, waitForClock } from '../e2e/playback-support'
import { dropouts, firstSound, fmt, RATE, Recorder, sleep } from './audio-record'
import { keep, pausePlayer, setSound, titleShown } from './audio-sections-kit'
import type { SectionRun } from './audio-sections-kit'
import { measureBoundaries, measureCrossfade } from './audio-measure'
import {
  ALBUM_CUTS,
  ALBUM_FORMATS,
  ALBUM_PEAK,
  ALBUM_RATE,
  albumSignal,
  albumTrackTitle,
} from './audio-signals'
import type { AlbumFormat } from './audio-signals'
import { CROSSFADE, makeLibrary } from './audio-signals'
import { equaliserSection, speedSection } from './audio-sections-tone'
import type { Figure } from './stats'

/**
 * `bench:audio`'s sections on what the sound does between and inside songs, each runnable on its own
 * (`-- --only gapless-album,speed,crossfade,eq`): a gapless album's boundaries (MP3 with its LAME/Xing
 * header, AAC with iTunSMPB and with an edit list), speed changes, a crossfade and the equaliser's
 * response. One app (the end-to-end harness, audible into the bench's null sink) on the reference data
 * source serving a music folder of test signals made by ffmpeg; loudness normalisation off (Settings →
 * Playback), so what is recorded is the songs' own level. Each section prints its lines and returns its
 * figures (named as in docs/bench/playback-results.md).
 */

export const SECTIONS = ['gapless-album', 'speed', 'crossfade', 'eq'] as const
export type Section = (typeof SECTIONS)[number]

const load = () =>
  loadavg()
    .map((v) => v.toFixed(1))
    .join(' / ')

async function gaplessAlbum(run: SectionRun, format: AlbumFormat) {
  const { page } = run
  const first = run.songs.get(albumTrackTitle(format, 1))
  if (!first?.album) throw new Error(`${albumTrackTitle(format, 1)} is not in the library`)
  // The album's tracks in track order (the reference source has no album pages to list them), queued
  // as an album's page plays them; one album id, as the source grouped them.
  const expected = ALBUM_CUTS.slice(1).map((_, i) => albumTrackTitle(format, i + 1))
  const tracks = expected.map((title) => run.songs.get(title)!)
  const albums = new Set(tracks.map((song) => song?.album?.id))
  const recorder = run.recorder()
  recorder.start()
  await sleep(300)
  const mark = Date.now()
  await playSongs(page, tracks)
  await titleShown(page, expected[expected.length - 1])
  const lastLength = (ALBUM_CUTS[4] - ALBUM_CUTS[3]) / ALBUM_RATE
  await waitForClock(page, lastLength - 0.4, 30_000)
  await sleep(800)
  const rec = recorder.stop()
  await pausePlayer(page)
  const start = firstSound(rec, recorder.frameAt(mark))
  await keep(`album-${format}-from-${start}`, rec[0])
  const measured = measureBoundaries(
    rec[0],
    albumSignal,
    ALBUM_CUTS.slice(1, -1).map((cut) => cut / ALBUM_RATE),
    start,
    RATE,
    ALBUM_PEAK,
  )
  const label = ALBUM_FORMATS[format].label
  const albumFrames = ((ALBUM_CUTS[ALBUM_CUTS.length - 1] / ALBUM_RATE) * RATE) | 0
  const heard = dropouts(rec, Math.round(measured.start), Math.round(measured.start) + albumFrames)
  console.log(
    `\n${label}: ${tracks.length} tracks cut at samples ${ALBUM_CUTS.slice(1, -1).join(', ')} (44.1 kHz; no frame boundary), ${albums.size === 1 ? 'one album' : `${albums.size} albums`} on the data source; silences of 1 ms or more anywhere in the album (drop-outs) ${heard.length}`,
  )
  measured.boundaries.forEach((b, i) => {
    console.log(
      `  boundary ${i + 1}: time added ${fmt(b.addedMs, 3)} ms; longest silence within 50 ms ${fmt(b.silenceMs, 2)} ms; largest step from the continued signal within 5 ms ${fmt(100 * b.largestOff, 1)} % of its peak (inside the track, 100 ms before: ${fmt(100 * b.ownOff, 1)} %); correlation before/after ${fmt(b.correlation[0], 3)}/${fmt(b.correlation[1], 3)}${Math.min(...b.correlation) < 0.95 ? ' (under 0.95: a drop-out in the stretches measured, so the figure is the drop-out, not the boundary)' : b.silenceMs >= 0.5 ? ' (a silence at the boundary: a gap, or a drop-out under load; a gap comes back in every run)' : ''}`,
    )
    run.figures.push({
      figure: `${label.split(' (')[0]}${format === 'm4a' ? ' (edit list)' : format === 'm4a-itunes' ? ' (iTunSMPB)' : ''}: boundary ${i + 1}`,
      value: Number(b.addedMs.toFixed(3)),
      unit: 'ms added',
      target: '|x| ≤ 1',
      note: `${Math.min(...b.correlation) < 0.95 ? 'a drop-out in the stretches; ' : ''}silence ${fmt(b.silenceMs, 2)} ms`,
    })
  })
}

async function crossfade(run: SectionRun) {
  const { page } = run
  const out = run.songs.get(CROSSFADE.out.title)!
  const into = run.songs.get(CROSSFADE.in.title)!
  const seconds = 4
  await setSound(page, { crossfade: seconds })
  await page.keyboard.press('Escape')
  const recorder = run.recorder()
  recorder.start()
  await sleep(300)
  const mark = Date.now()
  await playSongs(page, [out, into])
  await titleShown(page, CROSSFADE.in.title)
  await waitForClock(page, 8.2, 30_000)
  const rec = recorder.stop()
  await pausePlayer(page)
  const start = firstSound(rec, recorder.frameAt(mark))
  await keep(`crossfade-from-${start}`, rec[0])
  const from = start + 0.5 * RATE
  const curves = measureCrossfade(
    rec[0],
    from,
    rec[0].length - RATE / 10,
    CROSSFADE.out.hz,
    CROSSFADE.in.hz,
    RATE,
  )
  const around = [curves.startFrame - 0.5 * RATE, curves.startFrame + (curves.seconds + 0.5) * RATE].map(
    Math.round,
  )
  const silences = dropouts(rec, around[0], around[1])
  const startsAt = (curves.startFrame - start) / RATE
  console.log(
    `\ncrossfade ${seconds} s between two songs of different albums (a 600 Hz tone out, a 900 Hz tone in, each 10 s, the same level; each tone's level in 10 ms windows):`,
    `\n  overlap from the fitted equal-power curves ${fmt(curves.seconds, 3)} s, from ${fmt(startsAt, 3)} s into the first song (its end at ${CROSSFADE.seconds} s: the overlap should end there); heard from the incoming's first −40 dB to the outgoing's last ${fmt(curves.heardSeconds, 2)} s`,
    `\n  the two songs' summed power over the overlap ${fmt(curves.sumDb[0], 2)} … ${fmt(curves.sumDb[1], 2)} dB against their own level (equal power: 0)`,
    `\n  each song's level off the equal-power curve over the middle 80 %: out ${fmt(curves.curveOffDb[0], 2)} dB, in ${fmt(curves.curveOffDb[1], 2)} dB`,
    `\n  silences of 1 ms or more from 0.5 s before the overlap to 0.5 s after: ${silences.length}${silences.length ? ` (${silences.map((s) => fmt(s)).join(', ')} ms)` : ''}; 10 ms windows left out of the figures above for a drop-out ${curves.dropoutWindows}`,
  )
  run.figures.push(
    {
      figure: `crossfade ${seconds} s: overlap`,
      value: Number(curves.seconds.toFixed(3)),
      unit: 's',
      target: `${seconds}`,
    },
    {
      figure: `crossfade ${seconds} s: summed level, lowest`,
      value: Number(curves.sumDb[0].toFixed(2)),
      unit: 'dB',
      target: '≥ −1',
    },
    {
      figure: `crossfade ${seconds} s: off the equal-power curve`,
      value: Number(Math.max(...curves.curveOffDb).toFixed(2)),
      unit: 'dB',
    },
    { figure: `crossfade ${seconds} s: silences`, value: silences.length, unit: 'count', target: '0' },
  )
  await setSound(page, { crossfade: 0 })
  await page.keyboard.press('Escape')
}

/** The library's songs by title (ids from 1 until three in a row are missing). */
async function librarySongs(app: App): Promise<Map<string, Song>> {
  const songs = new Map<string, Song>()
  for (let id = 1, missing = 0; missing < 3 && id < 200; id++) {
    const song = await songDetail(app, id).catch(() => undefined)
    if (song) songs.set(song.name, song)
    missing = song ? 0 : missing + 1
  }
  return songs
}

/**
 * Runs `sections` in one app and returns their figures. `root`: the bench's temp folder (the music
 * folder is made there); `pulseServer`: the null sink's server.
 */
export async function soundSections(
  sections: readonly Section[],
  options: { root: string; pulseServer: string; chromiumArgs: string[]; formats?: AlbumFormat[] },
): Promise<Figure[]> {
  const formats = options.formats ?? ['mp3', 'm4a-itunes', 'm4a']
  const library = await makeLibrary(options.root, formats)
  const app = await startApp({
    demo: 0,
    server: { library },
    audible: true,
    chromiumEnv: { PULSE_SERVER: options.pulseServer },
    chromiumArgs: options.chromiumArgs,
    store: { settings: { ...DEFAULT_SETTINGS, loudness: 'off' } },
  })
  const figures: Figure[] = []
  try {
    const run: SectionRun = {
      app,
      page: app.page,
      recorder: () => new Recorder(options.pulseServer),
      songs: await librarySongs(app),
      figures,
    }
    await app.page.getByTestId('now-playing').waitFor()
    for (const section of sections) {
      console.log(`\n== ${section} (load average ${load()})`)
      // A section that fails is reported and the next one runs.
      try {
        if (section === 'gapless-album') for (const format of formats) await gaplessAlbum(run, format)
        if (section === 'speed') await speedSection(run)
        if (section === 'crossfade') await crossfade(run)
        if (section === 'eq') await equaliserSection(run)
      } catch (error) {
        console.log(`   ${section} failed:`, error)
        await pausePlayer(app.page).catch(() => undefined)
      }
      console.log(`   (load average at the end ${load()})`)
    }
  } finally {
    await app.close()
  }
  return figures
}
