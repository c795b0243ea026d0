import { describe, expect, it } from 'vitest'
import type { Container } from '@shared/audio/codec'
import { openContainer } from '@shared/audio/codec'
import { GAPLESS_RATE, sinePart } from '../support/gapless-audio'
import type { GaplessFormat } from '../support/gapless-audio'

/**
 * What an encoder adds before and after a song, as the file declares it, on files made by ffmpeg: the
 * LAME tag of an MP3 (delay and padding, 12 bits each, plus the decoder's own 529 samples), the edit list
 * of an MP4, and iTunes' `iTunSMPB` (priming, padding, length). The song is then its own length, to the
 * sample. What the decoder makes of it at a boundary is checked in Chromium (`codec-gapless.test.ts`).
 */

/** A length that is no multiple of any frame size: 1.3 s and 7 samples. */
const LENGTH = 57_337

async function open(format: GaplessFormat): Promise<{ container: Container; bytes: Uint8Array }> {
  const bytes = sinePart(0, LENGTH, format)
  const container = await openContainer(bytes.subarray(0, 64 * 1024), bytes.length, async (start, end) =>
    bytes.slice(start, end + 1),
  )
  if (!container) throw new Error(`${format}: not opened`)
  return { container, bytes }
}

/** The LAME tag's delay and padding: 12 bits each, 21 bytes after the encoder's name. */
function lameTag(bytes: Uint8Array) {
  const name = bytes.findIndex((_, i) =>
    ['LAME', 'Lavc', 'Lavf'].includes(String.fromCharCode(...bytes.subarray(i, i + 4))),
  )
  const v = (bytes[name + 21] << 16) | (bytes[name + 22] << 8) | bytes[name + 23]
  return { delay: v >> 12, padding: v & 0xfff }
}

describe('encoder delay and padding', () => {
  it('reads an MP3’s LAME tag: the encoder’s delay and the decoder’s 529 samples skipped, the padding cut', async () => {
    const { container, bytes } = await open('mp3')
    const { delay, padding } = lameTag(bytes)
    // LAME's own delay (576 samples), and a padding that fills the last frame.
    expect(delay).toBe(576)
    expect(container.skip).toBe(delay + 529)
    expect(container.frames).toBe(LENGTH)
    // Every frame the file holds is the delay, the song and the padding.
    expect((delay + LENGTH + padding) % 1152).toBe(0)
  })

  it('reads an MP4’s edit list: the AAC encoder’s priming skipped, the song its own length', async () => {
    const { container } = await open('m4a')
    expect(container).toMatchObject({ codec: 'mp4a.40.2', skip: 1024 })
    // Its length is in the movie's time scale, milliseconds in ffmpeg's files: within half of one.
    expect(Math.abs(container.frames - LENGTH)).toBeLessThanOrEqual(GAPLESS_RATE / 2000)
  })

  it('reads iTunes’ gapless info (iTunSMPB) where there is no edit list: priming skipped, padding cut', async () => {
    const { container } = await open('m4a-itunes')
    expect(container).toMatchObject({ codec: 'mp4a.40.2', skip: 1024, frames: LENGTH })
  })
})
