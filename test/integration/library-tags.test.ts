import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseFile } from 'music-metadata'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDataSource } from '../../server/index'
import { data, type Json } from '../conformance/helpers'
import { OWNER_PASSPHRASE } from '../support/phone'

/** Genre, unsynced lyrics and ReplayGain read from files made by ffmpeg, as the song's answer gives them. */
const root = mkdtempSync(join(tmpdir(), 'cadence-library-tags-'))
const music = join(root, 'music')
afterAll(() => rmSync(root, { recursive: true, force: true }))

const RG = [
  ...['-metadata', 'REPLAYGAIN_TRACK_GAIN=-6.50 dB', '-metadata', 'REPLAYGAIN_TRACK_PEAK=0.912345'],
  ...['-metadata', 'REPLAYGAIN_ALBUM_GAIN=-7.00 dB', '-metadata', 'REPLAYGAIN_ALBUM_PEAK=0.950000'],
]

function ffmpeg(out: string, seed: number, args: string[]): void {
  execFileSync('ffmpeg', [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-i', `sine=frequency=${300 + seed * 41}:duration=1`],
    ...['-ac', '1', '-ar', '48000'],
    ...args,
    out,
  ])
}

/** An ID3v2.3 tag of one USLT frame (ffmpeg writes `lyrics` as TXXX, not USLT), before an MP3's frames. */
function withUslt(mp3: Buffer, text: string): Buffer {
  const body = Buffer.concat([Buffer.from([0]), Buffer.from('eng\0', 'latin1'), Buffer.from(text, 'latin1')])
  const frame = Buffer.alloc(10)
  frame.write('USLT', 0, 'latin1')
  frame.writeUInt32BE(body.length, 4)
  const size = frame.length + body.length
  const head = Buffer.from([0x49, 0x44, 0x33, 3, 0, 0, 0, 0, 0, 0])
  head.writeUInt8((size >> 21) & 0x7f, 6)
  head.writeUInt8((size >> 14) & 0x7f, 7)
  head.writeUInt8((size >> 7) & 0x7f, 8)
  head.writeUInt8(size & 0x7f, 9)
  return Buffer.concat([head, frame, body, mp3])
}

let url = ''
let close: (() => Promise<void>) | undefined

beforeAll(async () => {
  mkdirSync(music)
  // FLAC: Vorbis comments GENRE, LYRICS and REPLAYGAIN_*.
  ffmpeg(join(music, 'vorbis.flac'), 1, [
    ...['-c:a', 'flac', '-metadata', 'title=Flac Song', '-metadata', 'artist=Tagger'],
    ...['-metadata', 'genre=Cool Jazz', '-metadata', 'lyrics=flac line one\nflac line two', ...RG],
  ])
  // Ogg Opus: UNSYNCEDLYRICS.
  ffmpeg(join(music, 'unsynced.opus'), 2, [
    ...['-c:a', 'libopus', '-b:a', '24k', '-metadata', 'title=Opus Song', '-metadata', 'artist=Tagger'],
    ...['-metadata', 'UNSYNCEDLYRICS=opus words'],
  ])
  // M4A: ©lyr and ©gen.
  ffmpeg(join(music, 'itunes.m4a'), 3, [
    ...['-c:a', 'aac', '-b:a', '32k', '-metadata', 'title=AAC Song', '-metadata', 'artist=Tagger'],
    ...['-metadata', 'genre=Bossa Nova', '-metadata', 'lyrics=aac words'],
  ])
  // MP3: ID3 TXXX ReplayGain (ffmpeg), then a hand-made USLT frame in front.
  const plain = join(root, 'plain.mp3')
  ffmpeg(plain, 4, [
    ...['-c:a', 'libmp3lame', '-b:a', '32k', '-write_id3v2', '1', '-id3v2_version', '3'],
    ...['-metadata', 'title=MP3 Song', '-metadata', 'artist=Tagger', ...RG],
  ])
  const noTag = join(root, 'notag.mp3')
  ffmpeg(noTag, 4, ['-c:a', 'libmp3lame', '-b:a', '32k', '-write_id3v2', '0'])
  writeFileSync(join(music, 'uslt.mp3'), withUslt(readFileSync(noTag), 'uslt line one\nuslt line two'))
  writeFileSync(join(music, 'replaygain.mp3'), readFileSync(plain))
  // A sidecar .lrc stays first over the tag's unsynced text.
  ffmpeg(join(music, 'sidecar.flac'), 5, [
    ...['-c:a', 'flac', '-metadata', 'title=Sidecar Song', '-metadata', 'artist=Tagger'],
    ...['-metadata', 'lyrics=unsynced loses'],
  ])
  writeFileSync(join(music, 'sidecar.lrc'), '[00:00.20]timed wins\n')

  const server = await startDataSource({
    ownerPassphrase: OWNER_PASSPHRASE,
    dataDir: join(root, 'data'),
    library: music,
    demo: 0,
  })
  url = server.url
  close = () => server.close()
}, 120_000)

afterAll(async () => {
  await close?.()
})

async function detail(name: string): Promise<Json> {
  const found = (await data(url, `/search?keywords=${encodeURIComponent(name)}`)).songs as Json[]
  const hit = found.find((s) => s.name === name)
  expect(hit, name).toBeDefined()
  return data(url, `/song/detail?id=${hit!.id}`)
}

describe('library tags: what ffmpeg wrote is what the importer reads', () => {
  it('music-metadata reads the test files as expected', async () => {
    const flac = await parseFile(join(music, 'vorbis.flac'))
    expect(flac.common.genre).toEqual(['Cool Jazz'])
    expect(flac.common.replaygain_track_gain?.dB).toBeCloseTo(-6.5)
    const mp3 = await parseFile(join(music, 'uslt.mp3'))
    expect(mp3.native['ID3v2.3'].map((t) => t.id)).toContain('USLT')
    const rg = await parseFile(join(music, 'replaygain.mp3'))
    expect(rg.native['ID3v2.3'].map((t) => t.id)).toContain('TXXX:REPLAYGAIN_TRACK_GAIN')
    const m4a = await parseFile(join(music, 'itunes.m4a'))
    expect(m4a.native.iTunes.map((t) => t.id)).toContain('©lyr')
  })
})

describe('library tags: genre', () => {
  it("is in the song's meta and found by search", async () => {
    expect((await detail('Flac Song')).meta.genre).toBe('Cool Jazz')
    expect((await detail('AAC Song')).meta.genre).toBe('Bossa Nova')
    const byGenre = (await data(url, '/search?keywords=Bossa%20Nova')).songs as Json[]
    expect(byGenre.map((s) => s.name)).toEqual(['AAC Song'])
  })
})

describe('library tags: unsynced lyrics', () => {
  it('serves USLT, Vorbis LYRICS / UNSYNCEDLYRICS and MP4 ©lyr as the lyrics', async () => {
    expect((await detail('Flac Song')).meta.lyric.normal).toBe('flac line one\nflac line two')
    expect((await detail('Opus Song')).meta.lyric.normal).toBe('opus words')
    expect((await detail('AAC Song')).meta.lyric.normal).toBe('aac words')
    expect((await detail('MP3 Song')).meta.lyric?.normal).toBeUndefined()
    const uslt = (await data(url, '/search?keywords=uslt')).songs as Json[]
    expect(uslt).toHaveLength(1)
    const song = await data(url, `/song/detail?id=${uslt[0].id}`)
    expect(song.meta.lyric.normal).toBe('uslt line one\nuslt line two')
  })

  it('keeps a sidecar .lrc first', async () => {
    expect((await detail('Sidecar Song')).meta.lyric.normal).toBe('[00:00.20]timed wins\n')
  })
})

describe('library tags: ReplayGain', () => {
  it('gives REPLAYGAIN_* (Vorbis) and ID3 TXXX as meta.replayGain', async () => {
    const expected = { trackGain: -6.5, trackPeak: 0.912345, albumGain: -7, albumPeak: 0.95 }
    expect((await detail('Flac Song')).meta.replayGain).toEqual(expected)
    expect((await detail('MP3 Song')).meta.replayGain).toEqual(expected)
    expect((await detail('Opus Song')).meta.replayGain).toBeUndefined()
  })
})
