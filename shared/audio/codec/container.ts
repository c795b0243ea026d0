/**
 * A compressed song read as a stream of frames (the renderer's `codec-source.ts` feeds them to WebCodecs'
 * `AudioDecoder`), so a long FLAC or MP3 file is never held whole, neither as bytes nor as PCM. A
 * container knows where its frames are; seeking bisects the file by byte offset (`flac.ts`: each frame
 * header says which sample it starts at), estimates it (`mp3.ts`: from the bit rate or the Xing
 * table of contents) or looks it up (`mp4.ts`: AAC, whose sample tables say where every frame is).
 */

/** One frame found in the bytes: `length` bytes holding `samples` decoded samples per channel. */
export interface Frame {
  length: number
  samples: number
  /** The decoder output index of its first sample, when the frame header says (FLAC). */
  sample?: number
}

/** A frame at `at`, `'more'` when the bytes end before it is known, or undefined: not a frame there. */
export type FrameAnswer = Frame | 'more' | undefined

/** A point in the file: a frame starting at `byte` whose first sample is decoder output `sample`. */
export interface SeekPoint {
  byte: number
  sample: number
}

export interface Container {
  /** The WebCodecs codec string and its configuration. */
  readonly codec: string
  readonly sampleRate: number
  readonly channels: number
  readonly description?: Uint8Array
  /** Samples per channel of the song (after `skip` and the end's padding are taken off). */
  readonly frames: number
  /** Decoder output samples before the song's first (an MP3 encoder's and decoder's delay). */
  readonly skip: number
  /** Where the first frame starts and the last one ends. */
  readonly audioStart: number
  readonly audioEnd: number
  /** Output frames to throw away after a jump: decoders that lean on earlier frames (MP3's reservoir). */
  readonly preroll: number
  /**
   * The frame starting at `bytes[at]` (the window's bytes, ending at the file's end when `eof`).
   * `previous`: the frame before it, when it was read in order (FLAC checks its header follows on).
   * `base`: the file offset of `bytes[0]` (MP4 finds its frames by offset in its tables).
   */
  frameAt(bytes: Uint8Array, at: number, eof: boolean, previous?: Frame, base?: number): FrameAnswer
  /** The known points around decoder output sample `target`: where a search for it starts. */
  bounds(target: number): { low: SeekPoint; high: SeekPoint }
  /** The decoder output sample a frame found at `byte` starts with, where headers do not say (MP3). */
  sampleAt?(byte: number): number
}

/** Bytes `[start, end]` of the file, inclusive (an HTTP Range). */
export type ReadRange = (start: number, end: number) => Promise<Uint8Array>

/** A big-endian number of `bits` bits from a bit offset in `bytes` (up to 53 bits). */
export function bitsAt(bytes: Uint8Array, bitOffset: number, bits: number): number {
  let value = 0
  for (let i = 0; i < bits; i++) {
    const bit = bitOffset + i
    value = value * 2 + ((bytes[bit >> 3] >> (7 - (bit & 7))) & 1)
  }
  return value
}

export const ascii = (bytes: Uint8Array, at: number, length: number) =>
  String.fromCharCode(...bytes.subarray(at, at + length))

/** Size of an ID3v2 tag at `at` (its header and footer included), or 0 when none is there. */
export function id3v2Size(bytes: Uint8Array, at = 0): number {
  if (bytes.length < at + 10 || ascii(bytes, at, 3) !== 'ID3') return 0
  const size =
    ((bytes[at + 6] & 0x7f) << 21) |
    ((bytes[at + 7] & 0x7f) << 14) |
    ((bytes[at + 8] & 0x7f) << 7) |
    (bytes[at + 9] & 0x7f)
  const footer = bytes[at + 5] & 0x10 ? 10 : 0
  return 10 + size + footer
}
