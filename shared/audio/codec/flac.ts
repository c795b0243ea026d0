import { ascii, bitsAt, id3v2Size } from './container'
import type { Container, ReadRange, SeekPoint } from './container'

/**
 * FLAC as a stream of frames. FLAC frames carry no length: a frame ends where the next frame's header
 * starts, known by its sync code, its CRC-8, fields that agree with the stream, and a frame number (or
 * sample number) that follows on from the frame before. Every header says where it is in the song, so a
 * seek found by bisection is exact.
 */

interface StreamInfo {
  minBlock: number
  maxBlock: number
  maxFrame: number
  sampleRate: number
  channels: number
  bits: number
  total: number
}

/** The metadata blocks at most this long are read (a cover picture is skipped, not read). */
const MAX_METADATA_READ = 1 << 20

/**
 * Opens a FLAC file from its first bytes (`head`; more is read when its metadata runs on), or answers
 * undefined when it is not FLAC. `size`: the file's length in bytes.
 */
export async function openFlac(
  head: Uint8Array,
  size: number,
  read: ReadRange,
): Promise<Container | undefined> {
  const start = id3v2Size(head)
  const bytesAt = async (at: number, length: number) =>
    at + length <= head.length ? head.subarray(at, at + length) : read(at, at + length - 1)
  if (ascii(await bytesAt(start, 4), 0, 4) !== 'fLaC') return undefined
  let at = start + 4
  let info: StreamInfo | undefined
  let infoBlock: Uint8Array | undefined
  const seekTable: SeekPoint[] = []
  for (;;) {
    if (at + 4 > size) return undefined
    const header = await bytesAt(at, 4)
    const last = (header[0] & 0x80) !== 0
    const type = header[0] & 0x7f
    const length = (header[1] << 16) | (header[2] << 8) | header[3]
    const body = at + 4
    if (type === 0 && length >= 34) {
      infoBlock = (await bytesAt(body, 34)).slice()
      info = streamInfo(infoBlock)
    } else if (type === 3 && length <= MAX_METADATA_READ) {
      const table = await bytesAt(body, length)
      for (let p = 0; p + 18 <= length; p += 18) {
        const sample = bitsAt(table, p * 8, 64)
        // Placeholder points are all ones (read here as 2^64).
        if (sample >= 2 ** 63) continue
        seekTable.push({ sample, byte: bitsAt(table, (p + 8) * 8, 64) })
      }
    }
    at = body + length
    if (last) break
  }
  if (!info || !infoBlock || info.sampleRate === 0 || info.channels < 1) return undefined
  const audioStart = at
  const description = new Uint8Array(4 + 4 + 34)
  description.set([0x66, 0x4c, 0x61, 0x43, 0x80, 0, 0, 34])
  description.set(infoBlock, 8)
  return flacContainer(info, description, audioStart, size, seekTable)
}

function streamInfo(block: Uint8Array): StreamInfo {
  return {
    minBlock: bitsAt(block, 0, 16),
    maxBlock: bitsAt(block, 16, 16),
    maxFrame: bitsAt(block, 56, 24),
    sampleRate: bitsAt(block, 80, 20),
    channels: bitsAt(block, 100, 3) + 1,
    bits: bitsAt(block, 103, 5) + 1,
    total: bitsAt(block, 108, 36),
  }
}

function flacContainer(
  info: StreamInfo,
  description: Uint8Array,
  audioStart: number,
  audioEnd: number,
  table: SeekPoint[],
): Container {
  const frames = info.total > 0 ? info.total : Number.NaN
  // Seek points' offsets count from the first frame.
  const points = table.map((point) => ({ sample: point.sample, byte: audioStart + point.byte }))
  const maxFrame = info.maxFrame > 0 ? info.maxFrame : 1 << 20
  return {
    codec: 'flac',
    sampleRate: info.sampleRate,
    channels: info.channels,
    description,
    frames,
    skip: 0,
    audioStart,
    audioEnd,
    preroll: 0,
    frameAt(bytes, at, eof, previous) {
      const header = frameHeader(bytes, at, info)
      if (header === 'more') return eof ? undefined : 'more'
      if (!header) return undefined
      if (previous?.sample !== undefined && header.sample !== previous.sample + previous.samples)
        return undefined
      // The frame ends where the next one starts (or at the file's end), at most `maxFrame` bytes on.
      const last = at + maxFrame
      let cut = false
      for (let next = at + header.headerLength + 1; next <= last && next + 1 < bytes.length; next++) {
        if (bytes[next] !== 0xff || (bytes[next + 1] & 0xfe) !== 0xf8) continue
        const following = frameHeader(bytes, next, info)
        if (following === 'more') {
          cut = true
          break
        }
        if (following && following.sample === header.sample + header.samples)
          return { length: next - at, samples: header.samples, sample: header.sample }
      }
      if (!cut && bytes.length - 1 > last) return undefined
      if (eof) return { length: bytes.length - at, samples: header.samples, sample: header.sample }
      return 'more'
    },
    bounds(target) {
      let low: SeekPoint = { byte: audioStart, sample: 0 }
      let high: SeekPoint = {
        byte: audioEnd,
        sample: Number.isFinite(frames) ? frames : Number.MAX_SAFE_INTEGER,
      }
      for (const point of points) {
        if (point.sample <= target && point.sample >= low.sample) low = point
        if (point.sample > target && point.sample < high.sample) high = point
      }
      return { low, high }
    },
  }
}

const BLOCK_SIZES = [0, 192, 576, 1152, 2304, 4608, -1, -2, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768]
const RATES = [0, 88200, 176400, 192000, 8000, 16000, 22050, 24000, 32000, 44100, 48000, 96000]
const BITS = [0, 8, 12, 0, 16, 20, 24, 32]

/**
 * The frame header at `at`: its first sample and its block size, or undefined when the bytes there are
 * not a header of this stream ('more': the bytes end inside it).
 */
export function frameHeader(
  bytes: Uint8Array,
  at: number,
  info: Pick<StreamInfo, 'sampleRate' | 'channels' | 'bits' | 'minBlock' | 'maxBlock'>,
): { sample: number; samples: number; headerLength: number } | 'more' | undefined {
  if (at + 4 > bytes.length) return 'more'
  if (bytes[at] !== 0xff || (bytes[at + 1] & 0xfe) !== 0xf8) return undefined
  const variable = (bytes[at + 1] & 1) === 1
  const blockCode = bytes[at + 2] >> 4
  const rateCode = bytes[at + 2] & 0x0f
  const channelCode = bytes[at + 3] >> 4
  const bitsCode = (bytes[at + 3] >> 1) & 7
  if (blockCode === 0 || rateCode === 15 || (bytes[at + 3] & 1) !== 0 || bitsCode === 3) return undefined
  const channels = channelCode < 8 ? channelCode + 1 : channelCode <= 10 ? 2 : 0
  if (channels !== info.channels) return undefined
  if (bitsCode !== 0 && BITS[bitsCode] !== info.bits) return undefined
  if (rateCode >= 1 && rateCode <= 11 && RATES[rateCode] !== info.sampleRate) return undefined
  // The frame or sample number, UTF-8 coded (up to 7 bytes).
  let p = at + 4
  if (p >= bytes.length) return 'more'
  const lead = bytes[p]
  const extra =
    lead < 0x80
      ? 0
      : lead === 0xfe
        ? 6
        : lead >= 0xfc
          ? 5
          : lead >= 0xf8
            ? 4
            : lead >= 0xf0
              ? 3
              : lead >= 0xe0
                ? 2
                : lead >= 0xc0
                  ? 1
                  : -1
  if (extra < 0 || lead === 0xff) return undefined
  let number = extra === 0 ? lead : extra === 6 ? 0 : lead & (0x3f >> extra)
  p++
  if (p + extra > bytes.length) return 'more'
  for (let i = 0; i < extra; i++, p++) {
    if ((bytes[p] & 0xc0) !== 0x80) return undefined
    number = number * 64 + (bytes[p] & 0x3f)
  }
  let samples = BLOCK_SIZES[blockCode]
  if (samples === -1) {
    if (p + 1 > bytes.length) return 'more'
    samples = bytes[p++] + 1
  } else if (samples === -2) {
    if (p + 2 > bytes.length) return 'more'
    samples = ((bytes[p] << 8) | bytes[p + 1]) + 1
    p += 2
  }
  if (rateCode === 12) p += 1
  else if (rateCode === 13 || rateCode === 14) p += 2
  if (p + 1 > bytes.length) return 'more'
  if (crc8(bytes, at, p) !== bytes[p]) return undefined
  if (info.maxBlock > 0 && samples > info.maxBlock) return undefined
  const sample = variable ? number : number * info.minBlock
  return { sample, samples, headerLength: p + 1 - at }
}

const CRC8 = (() => {
  const table = new Uint8Array(256)
  for (let n = 0; n < 256; n++) {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 0x80 ? ((c << 1) ^ 0x07) & 0xff : (c << 1) & 0xff
    table[n] = c
  }
  return table
})()

function crc8(bytes: Uint8Array, from: number, to: number): number {
  let crc = 0
  for (let i = from; i < to; i++) crc = CRC8[crc ^ bytes[i]]
  return crc
}
