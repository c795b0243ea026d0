import { ascii, bitsAt, id3v2Size } from './container'
import type { Container, ReadRange } from './container'

/**
 * MP3 (MPEG audio layer III) as a stream of frames: each header gives its frame's length. The first
 * frame may be a Xing/Info (or VBRI) frame, which is not audio: it counts the frames, maps positions to
 * bytes (its table of contents) and, written by LAME, gives the encoder's delay and padding, which are
 * trimmed (with the decoder's own 529-sample delay) so songs join without a gap, as browsers trim them.
 * A seek lands on an estimated frame (MP3 frames do not say where they are); the decoder is primed with
 * the frames before it, which a frame's bit reservoir and overlap lean on.
 */

const BITRATES = {
  v1: [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  v2: [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
}
const RATES = [44100, 48000, 32000]
/** The decoder's own delay (the synthesis filter bank), in samples. */
const DECODER_DELAY = 529
/**
 * A frame's data may start up to 511 bytes back (the bit reservoir), each granule overlaps the one
 * before, and the filter bank delays 529 samples: after a jump, the frames holding this many bytes, and
 * two more, are decoded and thrown away.
 */
const RESERVOIR_BYTES = 511
const OVERLAP_FRAMES = 2

interface Header {
  length: number
  samples: number
  sampleRate: number
  channels: number
  mpeg1: boolean
  bitrate: number
}

/** The layer III frame header at `at`, or undefined (`'more'`: the bytes end inside it). */
export function mp3Header(bytes: Uint8Array, at: number): Header | 'more' | undefined {
  if (at + 4 > bytes.length) return 'more'
  if (bytes[at] !== 0xff || (bytes[at + 1] & 0xe0) !== 0xe0) return undefined
  const version = (bytes[at + 1] >> 3) & 3
  const layer = (bytes[at + 1] >> 1) & 3
  const bitrateIndex = bytes[at + 2] >> 4
  const rateIndex = (bytes[at + 2] >> 2) & 3
  // Layer III only; free-format and reserved values are not frames here.
  if (version === 1 || layer !== 1 || bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3)
    return undefined
  const mpeg1 = version === 3
  const sampleRate = RATES[rateIndex] / (mpeg1 ? 1 : version === 2 ? 2 : 4)
  const bitrate = (mpeg1 ? BITRATES.v1 : BITRATES.v2)[bitrateIndex] * 1000
  const padding = (bytes[at + 2] >> 1) & 1
  const samples = mpeg1 ? 1152 : 576
  const length = Math.floor(((samples / 8) * bitrate) / sampleRate) + padding
  const channels = bytes[at + 3] >> 6 === 3 ? 1 : 2
  return { length, samples, sampleRate, channels, mpeg1, bitrate }
}

/** Where the frame's side information ends: a Xing tag is written there. */
function sideInfoEnd(header: Header): number {
  if (header.mpeg1) return header.channels === 1 ? 21 : 36
  return header.channels === 1 ? 13 : 21
}

/**
 * Opens an MP3 file from its first bytes (an ID3v2 tag is skipped: read further when it is longer than
 * `head`), or answers undefined when the first frame is not layer III. `size`: the file's length.
 */
export async function openMp3(
  head: Uint8Array,
  size: number,
  read: ReadRange,
): Promise<Container | undefined> {
  let start = 0
  // A file may carry more than one tag.
  let bytes = head
  let base = 0
  for (let tag = id3v2Size(bytes); tag > 0; tag = id3v2Size(bytes, start - base)) {
    start += tag
    if (start + 4096 > base + bytes.length) {
      if (start + 4 > size) return undefined
      base = start
      bytes = await read(start, Math.min(size, start + 4096) - 1)
    }
  }
  const at = start - base
  const first = mp3Header(bytes, at)
  if (!first || first === 'more') return undefined
  // Two frames in a row: a false sync inside a tag or junk is unlikely to be followed by a header.
  const second = mp3Header(bytes, at + first.length)
  if (second === undefined || (second !== 'more' && second.sampleRate !== first.sampleRate)) return undefined
  const info = infoTag(bytes, at, first)
  const audioStart = info ? start + first.length : start
  const audioEnd = size
  const skip = info?.delay !== undefined ? info.delay + DECODER_DELAY : 0
  let frames: number
  if (info?.frames) {
    frames = info.frames * first.samples - (info.delay !== undefined ? info.delay + info.padding! : 0)
  } else {
    // Constant bit rate assumed: the first frame's length for every frame.
    frames = Math.round((audioEnd - audioStart) / first.length) * first.samples
  }
  // An Info tag marks a constant bit rate: frame positions follow from it exactly, not from its table.
  const toc = info?.vbr ? info.toc : undefined
  /** Decoder output samples of the whole file, and bytes of its frames. */
  const total = info?.frames ? info.frames * first.samples : frames + skip
  const bytesTotal = info?.bytes && info.bytes > 0 ? info.bytes : audioEnd - audioStart
  // At a constant bit rate frame n starts n average frame lengths in (the padding bit keeps it so).
  const average = (first.samples / 8) * (first.bitrate / first.sampleRate)
  const averageBytes = bytesTotal / Math.max(1, total / first.samples)
  /**
   * Where decoder output sample `sample` is, in bytes: the Xing table of contents (its offsets count from
   * the Xing frame), or the bit rate.
   */
  const byteAt = (sample: number) => {
    if (!toc) return audioStart + Math.round(Math.floor(sample / first.samples) * average)
    const percent = Math.min(100, (sample / Math.max(1, total)) * 100)
    const index = Math.min(99, Math.floor(percent))
    const from = toc[index]
    const to = index < 99 ? toc[index + 1] : 256
    return start + Math.round(((from + (to - from) * (percent - index)) / 256) * bytesTotal)
  }
  /** The decoder output sample a frame starting at `byte` begins with (estimated from the table). */
  const sampleAt = (byte: number) => {
    if (!toc) return Math.round((byte - audioStart) / average) * first.samples
    const value = ((byte - start) / bytesTotal) * 256
    let index = 0
    while (index < 99 && toc[index + 1] <= value) index++
    const from = toc[index]
    const to = index < 99 ? toc[index + 1] : 256
    const percent = index + (to > from ? Math.min(1, (value - from) / (to - from)) : 0)
    return Math.round(((percent / 100) * total) / first.samples) * first.samples
  }
  return {
    codec: 'mp3',
    sampleRate: first.sampleRate,
    channels: first.channels,
    frames,
    skip,
    audioStart,
    audioEnd,
    // Frames can be half the average length (a quiet stretch of a variable bit rate).
    preroll: (OVERLAP_FRAMES + Math.ceil((2 * RESERVOIR_BYTES) / averageBytes)) * first.samples,
    frameAt(bytes, at, eof) {
      if (at + 3 <= bytes.length && ['TAG', 'APE', 'LYR'].includes(ascii(bytes, at, 3))) return undefined
      const header = mp3Header(bytes, at)
      if (header === 'more') return eof ? undefined : 'more'
      if (!header || header.sampleRate !== first.sampleRate) return undefined
      if (at + header.length > bytes.length)
        return eof ? { length: bytes.length - at, samples: header.samples } : 'more'
      return { length: header.length, samples: header.samples }
    },
    bounds(target) {
      // Back a little: the frame found from there is the target's or one before it (an estimate from
      // the table may be a frame off).
      const margin = toc ? Math.ceil(averageBytes) : 2
      const byte = Math.max(audioStart, Math.min(audioEnd, byteAt(Math.max(0, target)) - margin))
      // The same point twice: nothing to bisect, the search starts there (`sampleAt` the frame found).
      const point = { byte, sample: sampleAt(byte) }
      return { low: point, high: point }
    },
    sampleAt,
  }
}

interface InfoTag {
  vbr: boolean
  frames?: number
  bytes?: number
  toc?: Uint8Array
  delay?: number
  padding?: number
}

/** The Xing/Info or VBRI tag in the first frame, or undefined when it is an audio frame. */
function infoTag(bytes: Uint8Array, at: number, header: Header): InfoTag | undefined {
  const xing = at + 4 + sideInfoEnd(header) - 4
  if (xing + 8 <= bytes.length && ['Xing', 'Info'].includes(ascii(bytes, xing, 4))) {
    const flags = bitsAt(bytes, (xing + 4) * 8, 32)
    let p = xing + 8
    const tag: InfoTag = { vbr: ascii(bytes, xing, 4) === 'Xing' }
    if (flags & 1) {
      tag.frames = bitsAt(bytes, p * 8, 32)
      p += 4
    }
    if (flags & 2) {
      tag.bytes = bitsAt(bytes, p * 8, 32)
      p += 4
    }
    if (flags & 4) {
      tag.toc = bytes.slice(p, p + 100)
      p += 100
    }
    if (flags & 8) p += 4
    // LAME's extension: a 9-byte encoder name, then 12 bytes, then the delay and padding (12 bits each).
    if (p + 24 <= bytes.length && /^(LAME|Lavc|Lavf|GOGO)/.test(ascii(bytes, p, 4))) {
      const v = (bytes[p + 21] << 16) | (bytes[p + 22] << 8) | bytes[p + 23]
      tag.delay = v >> 12
      tag.padding = v & 0xfff
    }
    return tag
  }
  // VBRI (Fraunhofer) sits 32 bytes after the header.
  const vbri = at + 36
  if (vbri + 18 <= bytes.length && ascii(bytes, vbri, 4) === 'VBRI') {
    return {
      vbr: true,
      bytes: bitsAt(bytes, (vbri + 10) * 8, 32),
      frames: bitsAt(bytes, (vbri + 14) * 8, 32),
    }
  }
  return undefined
}
