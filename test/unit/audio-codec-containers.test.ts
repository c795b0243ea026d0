import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Container, Frame } from '@shared/audio/codec'
import { openContainer, openFlac, openMp3, openMp4 } from '@shared/audio/codec'

/**
 * The FLAC and MP3 readers of the streaming decoder (`shared/audio/codec`), on files made by ffmpeg
 * (`test/fixtures/audio`: 6 s, 44.1 kHz stereo). What the decoder makes of their frames is checked in
 * Chromium (`test/e2e/codec-source.test.ts`).
 */

const fixture = (name: string) =>
  new Uint8Array(readFileSync(join(import.meta.dirname, '../fixtures/audio', name)))

/** Opens `bytes` as its first 64 KB and ranges of the rest, as the track does, counting the reads. */
async function open(
  opener: typeof openFlac,
  bytes: Uint8Array,
  headLength = 64 * 1024,
): Promise<{ container: Container | undefined; reads: number }> {
  let reads = 0
  const container = await opener(bytes.subarray(0, headLength), bytes.length, async (start, end) => {
    reads++
    return bytes.slice(start, end + 1)
  })
  return { container, reads }
}

/** Every frame from the first, read in order: offsets and what they hold. */
function frames(container: Container, bytes: Uint8Array) {
  const found: Array<Frame & { at: number }> = []
  let at = container.audioStart
  let previous: Frame | undefined
  while (at < bytes.length) {
    const frame = container.frameAt(bytes, at, true, previous)
    if (!frame || frame === 'more') break
    found.push({ ...frame, at })
    at += frame.length
    previous = frame
  }
  return { found, end: at }
}

describe('FLAC frames', () => {
  const bytes = fixture('song.flac')

  it('reads the stream info and the decoder description', async () => {
    const { container } = await open(openFlac, bytes)
    expect(container).toMatchObject({
      codec: 'flac',
      sampleRate: 44100,
      channels: 2,
      frames: 264600,
      skip: 0,
    })
    const description = container!.description!
    expect(String.fromCharCode(...description.subarray(0, 4))).toBe('fLaC')
    // STREAMINFO as the last (only) metadata block, 34 bytes.
    expect(Array.from(description.subarray(4, 8))).toEqual([0x80, 0, 0, 34])
    expect(description.length).toBe(42)
  })

  it('finds every frame in order, each one where the one before ends, to the file’s end', async () => {
    const { container } = await open(openFlac, bytes)
    const { found, end } = frames(container!, bytes)
    expect(end).toBe(bytes.length)
    expect(found.reduce((sum, frame) => sum + frame.samples, 0)).toBe(264600)
    found.forEach((frame, index) => {
      if (index > 0) expect(frame.sample).toBe(found[index - 1].sample! + found[index - 1].samples)
    })
  })

  it('asks for more bytes where a frame’s end is not in them yet, and takes junk for no frame', async () => {
    const { container } = await open(openFlac, bytes)
    const { found } = frames(container!, bytes)
    const second = found[1]
    // The window ends inside the frame after it: its end is not known yet.
    expect(container!.frameAt(bytes.subarray(0, second.at + second.length + 3), second.at, false)).toBe(
      'more',
    )
    // One byte into a frame is not a frame.
    expect(container!.frameAt(bytes, second.at + 1, true)).toBeUndefined()
  })

  it('reads metadata that runs past the first bytes by ranges', async () => {
    const padding = 200_000
    const padded = new Uint8Array(bytes.length + 4 + padding)
    padded.set(bytes.subarray(0, 42))
    padded[4] &= 0x7f
    padded.set([0x01, (padding >> 16) & 0xff, (padding >> 8) & 0xff, padding & 0xff], 42)
    padded.set(bytes.subarray(42), 46 + padding)
    const { container, reads } = await open(openFlac, padded)
    expect(reads).toBeGreaterThan(0)
    expect(container!.audioStart).toBeGreaterThan(padding)
    expect(frames(container!, padded).found.reduce((sum, frame) => sum + frame.samples, 0)).toBe(264600)
  })

  it('is not an MP3 or a WAV file', async () => {
    expect((await open(openFlac, fixture('song-cbr.mp3'))).container).toBeUndefined()
    const wav = new TextEncoder().encode('RIFF\0\0\0\0WAVEfmt ')
    expect((await open(openFlac, wav)).container).toBeUndefined()
  })
})

describe('MP3 frames', () => {
  it('reads a LAME Info frame: not audio, the encoder’s delay and padding trimmed to the song', async () => {
    const bytes = fixture('song-cbr.mp3')
    const { container } = await open(openMp3, bytes)
    expect(container).toMatchObject({ codec: 'mp3', sampleRate: 44100, channels: 2, frames: 264600 })
    // The decoder's 529 samples plus the encoder's delay.
    expect(container!.skip).toBeGreaterThan(529)
    const { found, end } = frames(container!, bytes)
    expect(end).toBe(bytes.length)
    // Whole frames of 1152 samples hold the song and its delay and padding.
    const total = found.length * 1152
    expect(total).toBeGreaterThanOrEqual(264600 + container!.skip - 529)
    expect(total - 264600).toBeLessThan(3 * 1152)
  })

  it('maps a position to the frame that holds it at a constant bit rate', async () => {
    const bytes = fixture('song-cbr.mp3')
    const { container } = await open(openMp3, bytes)
    const { found } = frames(container!, bytes)
    for (const index of [1, 40, 100, 200]) {
      const { low } = container!.bounds(index * 1152 + 500)
      // Two bytes back from the frame's start, the next frame found is that frame.
      const next = found.find((frame) => frame.at >= low.byte)!
      expect(next.at).toBe(found[index].at)
      expect(container!.sampleAt!(next.at)).toBe(index * 1152)
    }
  })

  it('estimates a variable bit rate position from the Xing table, within two frames', async () => {
    const bytes = fixture('song-vbr.mp3')
    const { container } = await open(openMp3, bytes)
    expect(container!.frames).toBe(264600)
    const { found } = frames(container!, bytes)
    for (const index of [10, 60, 120, 200]) {
      const estimate = container!.sampleAt!(found[index].at)
      expect(Math.abs(estimate - index * 1152)).toBeLessThanOrEqual(2 * 1152)
      // A search starts before the frame holding the target.
      expect(container!.bounds(index * 1152).low.byte).toBeLessThanOrEqual(found[index].at)
    }
  })

  it('is not a FLAC file, nor an ID3 tag with nothing after it', async () => {
    expect((await open(openMp3, fixture('song.flac'))).container).toBeUndefined()
    const tag = new Uint8Array(10 + 20)
    tag.set(new TextEncoder().encode('ID3'), 0)
    tag[3] = 3
    tag[9] = 20
    expect((await open(openMp3, tag)).container).toBeUndefined()
  })
})

describe('AAC in MP4', () => {
  it('reads the sample tables: every frame where the one before ends, the edit list’s priming trimmed', async () => {
    const bytes = fixture('song.m4a')
    const { container } = await open(openMp4, bytes)
    expect(container).toMatchObject({ codec: 'mp4a.40.2', sampleRate: 44100, channels: 2, frames: 264600 })
    // ffmpeg's AAC encoder primes 1024 samples; the edit list says so.
    expect(container!.skip).toBe(1024)
    // The AudioSpecificConfig: AAC-LC (2), 44.1 kHz (index 4), 2 channels.
    expect(Array.from(container!.description!.subarray(0, 2))).toEqual([0x12, 0x10])
    const { found, end } = frames(container!, bytes)
    expect(end).toBe(container!.audioEnd)
    expect(found.reduce((sum, frame) => sum + frame.samples, 0)).toBeGreaterThanOrEqual(264600 + 1024)
    found.forEach((frame, index) => expect(frame.sample).toBe(index * 1024))
  })

  it('finds the moov box after the audio by the top-level boxes’ headers, a range each', async () => {
    const bytes = fixture('song-moov-last.m4a')
    const { container, reads } = await open(openMp4, bytes, 4096)
    expect(reads).toBeGreaterThan(0)
    expect(container).toMatchObject({ codec: 'mp4a.40.2', frames: 264600 })
  })

  it('looks a position up: the frame holding it, exactly', async () => {
    const bytes = fixture('song.m4a')
    const { container } = await open(openMp4, bytes)
    const { found } = frames(container!, bytes)
    for (const index of [0, 7, 100, 250]) {
      const { low, high } = container!.bounds(index * 1024 + 300)
      expect(low).toEqual({ byte: found[index].at, sample: index * 1024 })
      expect(high).toEqual(low)
      expect(container!.sampleAt!(found[index].at)).toBe(index * 1024)
    }
    // Not at a frame's start: not a frame.
    expect(container!.frameAt(bytes, found[3].at + 1, true)).toBeUndefined()
  })

  it('is not FLAC or MP3, and they are not it', async () => {
    expect((await open(openMp4, fixture('song.flac'))).container).toBeUndefined()
    expect((await open(openMp4, fixture('song-cbr.mp3'))).container).toBeUndefined()
    expect((await open(openMp3, fixture('song.m4a'))).container).toBeUndefined()
  })
})

describe('opening a file of any of them', () => {
  it('reads past an ID3 tag longer than the first bytes once, for every reader that looks there', async () => {
    // A 100 KB tag (an embedded cover) in front of the MP3 fixture.
    const cover = 100_000
    const mp3 = fixture('song-cbr.mp3')
    const bytes = new Uint8Array(10 + cover + mp3.length)
    bytes.set(new TextEncoder().encode('ID3'), 0)
    bytes[3] = 3
    bytes.set([(cover >> 21) & 0x7f, (cover >> 14) & 0x7f, (cover >> 7) & 0x7f, cover & 0x7f], 6)
    bytes.set(mp3, 10 + cover)
    const { container, reads } = await open(openContainer, bytes)
    expect(container).toMatchObject({ codec: 'mp3', frames: 264600 })
    expect(reads).toBe(1)
  })
})
