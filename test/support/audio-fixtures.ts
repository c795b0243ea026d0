import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { openFlac } from '@shared/audio/codec'

/** The 6 s test files made with ffmpeg (FLAC, MP3 at a constant and a variable bit rate, AAC in MP4). */
export const AUDIO_FIXTURES = join(import.meta.dirname, '../fixtures/audio')

/**
 * The FLAC fixture with its second frame damaged (a reserved subframe coding type), which Chromium's
 * decoders drop without an error. `title`: a title tag of the same length in place of "Probe FLAC".
 */
export async function damagedFlac(title?: string): Promise<Uint8Array> {
  const bytes = new Uint8Array(await readFile(join(AUDIO_FIXTURES, 'song.flac')))
  if (title) {
    const tag = new TextEncoder().encode('title=Probe FLAC')
    const at = bytes.findIndex((_, i) => tag.every((byte, j) => bytes[i + j] === byte))
    if (at < 0 || title.length !== 10) throw new Error('the title tag is not there, or not as long')
    bytes.set(new TextEncoder().encode(`title=${title}`), at)
  }
  const container = (await openFlac(bytes, bytes.length, async (start, end) => bytes.slice(start, end + 1)))!
  const first = container.frameAt(bytes, container.audioStart, true)
  if (!first || first === 'more') throw new Error('no first frame')
  // The frame header: 4 bytes, the frame number (1 byte here), the CRC-8; then the subframe header.
  bytes[container.audioStart + first.length + 6] = 0x04
  return bytes
}
