import { ascii, bitsAt } from './container'
import type { Container, ReadRange } from './container'

/**
 * AAC in an MP4 file (`.m4a`, QQ Music's AAC) as a stream of frames. The file's `moov` box holds the
 * audio track's sample tables, which say where every frame is and how long it lasts, so reading goes
 * from frame to frame by offset and a seek is a lookup. The `moov` box may follow the audio (a file not
 * made for streaming): the top-level boxes are then walked by their headers, a range each. The edit
 * list's start (the encoder's priming, usually 1024 or 2112 samples) and length trim the song as
 * browsers trim it; iTunes' gapless info (`iTunSMPB`: priming, padding, length), where the file has it,
 * trims it instead, so an album ripped by iTunes joins without a gap. AAC-LC only (`mp4a.40.2`); another profile is left to the whole-file decode.
 */

/** The `moov` box is read whole when at most this long (a 10-minute song's is about 300 KB). */
const MAX_MOOV = 16 << 20
/** Frames decoded before a seek's target and thrown away: each AAC frame overlaps the one before. */
const PRIMING_FRAMES = 2
const RATES = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350]

interface Box {
  type: string
  /** Offsets of its body and of its end, within the bytes it was read from. */
  body: number
  end: number
}

/** The boxes in `bytes[from, to)`. */
function boxes(bytes: Uint8Array, from: number, to: number): Box[] {
  const found: Box[] = []
  for (let at = from; at + 8 <= to;) {
    let size = bitsAt(bytes, at * 8, 32)
    const type = ascii(bytes, at + 4, 4)
    let body = at + 8
    if (size === 1) {
      if (at + 16 > to) break
      size = bitsAt(bytes, (at + 8) * 8, 64)
      body = at + 16
    } else if (size === 0) size = to - at
    if (size < body - at || at + size > to) break
    found.push({ type, body, end: at + size })
    at += size
  }
  return found
}

const child = (bytes: Uint8Array, box: Box | undefined, type: string) =>
  box ? boxes(bytes, box.body, box.end).find((inner) => inner.type === type) : undefined

/** A path of boxes down from `box`: `path(moov, 'mdia', 'minf', 'stbl')`. */
function path(bytes: Uint8Array, box: Box | undefined, ...types: string[]): Box | undefined {
  let at = box
  for (const type of types) at = child(bytes, at, type)
  return at
}

const u32 = (bytes: Uint8Array, at: number) => bitsAt(bytes, at * 8, 32)

/**
 * Opens an MP4 file from its first bytes (its `moov` box read by ranges where it is not in them), or
 * answers undefined when it is not MP4 with an AAC-LC track.
 */
export async function openMp4(
  head: Uint8Array,
  size: number,
  read: ReadRange,
): Promise<Container | undefined> {
  if (head.length < 12 || ascii(head, 4, 4) !== 'ftyp') return undefined
  // Find `moov` among the top-level boxes: in the first bytes, or by the boxes' headers.
  let moov: { bytes: Uint8Array; box: Box } | undefined
  for (let at = 0, count = 0; at + 8 <= size && count < 64; count++) {
    const header =
      at + 16 <= head.length ? head.subarray(at, at + 16) : await read(at, Math.min(size, at + 16) - 1)
    let boxSize = u32(header, 0)
    const type = ascii(header, 4, 4)
    let bodyAt = 8
    if (boxSize === 1) {
      boxSize = bitsAt(header, 64, 64)
      bodyAt = 16
    } else if (boxSize === 0) boxSize = size - at
    if (boxSize < bodyAt) return undefined
    if (type === 'moov') {
      if (boxSize > MAX_MOOV || at + boxSize > size) return undefined
      const bytes =
        at + boxSize <= head.length ? head.subarray(at, at + boxSize) : await read(at, at + boxSize - 1)
      moov = { bytes, box: { type, body: bodyAt, end: boxSize } }
      break
    }
    at += boxSize
  }
  if (!moov) return undefined
  const { bytes } = moov
  const movieScale = (() => {
    const mvhd = child(bytes, moov.box, 'mvhd')
    if (!mvhd) return 0
    return bytes[mvhd.body] === 1 ? u32(bytes, mvhd.body + 20) : u32(bytes, mvhd.body + 12)
  })()
  const track = boxes(bytes, moov.box.body, moov.box.end)
    .filter((box) => box.type === 'trak')
    .find((trak) => {
      const hdlr = path(bytes, trak, 'mdia', 'hdlr')
      return hdlr && ascii(bytes, hdlr.body + 8, 4) === 'soun'
    })
  const stbl = path(bytes, track, 'mdia', 'minf', 'stbl')
  const mdhd = path(bytes, track, 'mdia', 'mdhd')
  const stsd = child(bytes, stbl, 'stsd')
  if (!track || !stbl || !mdhd || !stsd) return undefined
  const mediaScale = bytes[mdhd.body] === 1 ? u32(bytes, mdhd.body + 20) : u32(bytes, mdhd.body + 12)

  // The sample description: mp4a, then its esds box's AudioSpecificConfig.
  const entry = boxes(bytes, stsd.body + 8, stsd.end)[0]
  if (!entry || entry.type !== 'mp4a') return undefined
  // QuickTime sound descriptions of version 1 and 2 carry 16 and 36 more bytes before their boxes.
  const soundVersion = bitsAt(bytes, (entry.body + 8) * 8, 16)
  const extra = soundVersion === 1 ? 16 : soundVersion === 2 ? 36 : 0
  const esds = boxes(bytes, entry.body + 28 + extra, entry.end).find((box) => box.type === 'esds')
  const config = esds ? audioSpecificConfig(bytes.subarray(esds.body + 4, esds.end)) : undefined
  if (!config) return undefined
  const sampleRate = config.sampleRate
  const channels = config.channels || bitsAt(bytes, (entry.body + 16) * 8, 16)
  if (config.objectType !== 2 || !sampleRate || !channels) return undefined

  const tables = sampleTables(bytes, stbl)
  if (!tables || tables.count === 0) return undefined
  const { offsets, sizes, starts, count } = tables
  const total = starts[count]

  // The edit list: where the song starts in the media (the priming) and how long it lasts.
  let skip = 0
  let frames = total
  const elst = path(bytes, track, 'edts', 'elst')
  if (elst && u32(bytes, elst.body + 4) >= 1) {
    const version = bytes[elst.body]
    const entryAt = elst.body + 8
    const segment = version === 1 ? bitsAt(bytes, entryAt * 8, 64) : u32(bytes, entryAt)
    const mediaTime = version === 1 ? bitsAt(bytes, (entryAt + 8) * 8, 64) : u32(bytes, entryAt + 4)
    if (mediaTime !== 0xffffffff && mediaTime < total) {
      skip = Math.round((mediaTime / mediaScale) * sampleRate)
      const length = movieScale > 0 ? Math.round((segment / movieScale) * sampleRate) : total - skip
      frames = Math.max(0, Math.min(total - skip, length > 0 ? length : total - skip))
    }
  }
  // iTunes' gapless info, where it is: the priming and the song's length in samples, as iTunes and
  // Apple's encoder write them (an iTunes rip may have no edit list, or one that trims nothing).
  const gapless = itunesGapless(bytes, moov.box)
  if (gapless && gapless.priming + gapless.length <= total) {
    skip = gapless.priming
    frames = gapless.length
  }
  // Media time in samples (the media's time scale is nearly always the sample rate).
  const toSamples = (time: number) =>
    mediaScale === sampleRate ? time : Math.round((time / mediaScale) * sampleRate)

  /** The frame whose bytes start at `byte`, or -1. */
  const frameIndexAt = (byte: number) => {
    let low = 0
    let high = count - 1
    while (low <= high) {
      const middle = (low + high) >> 1
      if (offsets[middle] === byte) return middle
      if (offsets[middle] < byte) low = middle + 1
      else high = middle - 1
    }
    return -1
  }
  /** The frame holding decoder output sample `sample`. */
  const frameIndexOf = (sample: number) => {
    let low = 0
    let high = count - 1
    while (low < high) {
      const middle = (low + high + 1) >> 1
      if (toSamples(starts[middle]) <= sample) low = middle
      else high = middle - 1
    }
    return low
  }
  const audioStart = offsets[0]
  const audioEnd = offsets[count - 1] + sizes[count - 1]
  return {
    codec: 'mp4a.40.2',
    sampleRate,
    channels,
    description: config.bytes.slice(),
    frames,
    skip,
    audioStart,
    audioEnd,
    preroll: PRIMING_FRAMES * 1024,
    frameAt(window, at, eof, _previous, base = 0) {
      const index = frameIndexAt(base + at)
      if (index < 0) return undefined
      const length = sizes[index]
      if (at + length > window.length) return eof ? undefined : 'more'
      return {
        length,
        samples: toSamples(starts[index + 1]) - toSamples(starts[index]),
        sample: toSamples(starts[index]),
      }
    },
    bounds(target) {
      const index = frameIndexOf(Math.max(0, target))
      const point = { byte: offsets[index], sample: toSamples(starts[index]) }
      return { low: point, high: point }
    },
    sampleAt(byte) {
      const index = frameIndexAt(byte)
      return index < 0 ? 0 : toSamples(starts[index])
    },
  }
}

/** The AudioSpecificConfig in an `esds` box's descriptors, with what it says. */
function audioSpecificConfig(
  bytes: Uint8Array,
): { bytes: Uint8Array; objectType: number; sampleRate: number; channels: number } | undefined {
  // Descriptors: a tag, a length in 7-bit groups, then the body. ES (3) > DecoderConfig (4) > Specific (5).
  const descriptor = (at: number) => {
    const tag = bytes[at]
    let length = 0
    let p = at + 1
    for (let i = 0; i < 4 && p < bytes.length; i++) {
      const byte = bytes[p++]
      length = (length << 7) | (byte & 0x7f)
      if (!(byte & 0x80)) break
    }
    return { tag, body: p, end: Math.min(bytes.length, p + length) }
  }
  const es = descriptor(0)
  if (es.tag !== 3) return undefined
  const flags = bytes[es.body + 2]
  let at = es.body + 3
  if (flags & 0x80) at += 2
  if (flags & 0x40) at += 1 + bytes[at]
  if (flags & 0x20) at += 2
  const decoderConfig = descriptor(at)
  if (decoderConfig.tag !== 4) return undefined
  const specific = descriptor(decoderConfig.body + 13)
  if (specific.tag !== 5 || specific.end <= specific.body) return undefined
  const config = bytes.subarray(specific.body, specific.end)
  let bit = 0
  const take = (bits: number) => {
    const value = bitsAt(config, bit, bits)
    bit += bits
    return value
  }
  let objectType = take(5)
  if (objectType === 31) objectType = 32 + take(6)
  const rateIndex = take(4)
  const sampleRate = rateIndex === 15 ? take(24) : (RATES[rateIndex] ?? 0)
  const channels = take(4)
  return { bytes: config, objectType, sampleRate, channels }
}

/** Every frame's offset and size, and its start in media time (one more: the end), from `stbl`. */
function sampleTables(bytes: Uint8Array, stbl: Box) {
  const stsz = child(bytes, stbl, 'stsz')
  const stsc = child(bytes, stbl, 'stsc')
  const stts = child(bytes, stbl, 'stts')
  const stco = child(bytes, stbl, 'stco')
  const co64 = child(bytes, stbl, 'co64')
  if (!stsz || !stsc || !stts || (!stco && !co64)) return undefined
  const fixedSize = u32(bytes, stsz.body + 4)
  const count = u32(bytes, stsz.body + 8)
  if (count > 1 << 22 || (fixedSize === 0 && stsz.body + 12 + count * 4 > stsz.end)) return undefined
  const sizes = new Uint32Array(count)
  for (let i = 0; i < count; i++) sizes[i] = fixedSize || u32(bytes, stsz.body + 12 + i * 4)

  const chunkTable = (stco ?? co64)!
  const chunkCount = u32(bytes, chunkTable.body + 4)
  const chunkAt = (i: number) =>
    co64 ? bitsAt(bytes, (chunkTable.body + 8 + i * 8) * 8, 64) : u32(bytes, chunkTable.body + 8 + i * 4)
  const runs = u32(bytes, stsc.body + 4)
  const offsets = new Float64Array(count)
  let sample = 0
  for (let run = 0; run < runs && sample < count; run++) {
    const entry = stsc.body + 8 + run * 12
    const firstChunk = u32(bytes, entry) - 1
    const perChunk = u32(bytes, entry + 4)
    const lastChunk = run + 1 < runs ? u32(bytes, entry + 12) - 1 : chunkCount
    for (let chunk = firstChunk; chunk < lastChunk && sample < count; chunk++) {
      let offset = chunkAt(chunk)
      for (let i = 0; i < perChunk && sample < count; i++) {
        offsets[sample] = offset
        offset += sizes[sample]
        sample++
      }
    }
  }
  if (sample < count) return undefined

  const starts = new Float64Array(count + 1)
  const entries = u32(bytes, stts.body + 4)
  let index = 0
  let time = 0
  for (let e = 0; e < entries && index < count; e++) {
    const runCount = u32(bytes, stts.body + 8 + e * 8)
    const delta = u32(bytes, stts.body + 12 + e * 8)
    for (let i = 0; i < runCount && index < count; i++) {
      starts[index++] = time
      time += delta
    }
  }
  for (; index <= count; index++) starts[index] = time
  return { offsets, sizes, starts, count }
}

/**
 * The `----:com.apple.iTunes:iTunSMPB` item of the movie's metadata (`moov/udta/meta/ilst`): a text of
 * hexadecimal fields, the second the encoder's priming, the third the padding at the end, the fourth
 * the song's length in samples. Undefined when it is not there or says nothing.
 */
function itunesGapless(
  bytes: Uint8Array,
  moov: Box,
): { priming: number; padding: number; length: number } | undefined {
  for (const udta of boxes(bytes, moov.body, moov.end).filter((box) => box.type === 'udta')) {
    const meta = child(bytes, udta, 'meta')
    if (!meta) continue
    // ISO's `meta` is a full box (4 bytes of version and flags before its boxes); QuickTime's is not.
    const inner = ascii(bytes, meta.body + 4, 4) === 'hdlr' ? meta.body : meta.body + 4
    const ilst = boxes(bytes, inner, meta.end).find((box) => box.type === 'ilst')
    for (const item of ilst ? boxes(bytes, ilst.body, ilst.end) : []) {
      if (item.type !== '----') continue
      const parts = boxes(bytes, item.body, item.end)
      // `mean` and `name` are full boxes; `data` has a type and a locale before its value.
      const text = (type: string, skip: number) => {
        const box = parts.find((part) => part.type === type)
        return box ? new TextDecoder().decode(bytes.subarray(box.body + skip, box.end)) : undefined
      }
      if (text('mean', 4) !== 'com.apple.iTunes' || text('name', 4) !== 'iTunSMPB') continue
      const fields = (text('data', 8) ?? '').trim().split(/\s+/)
      const priming = Number.parseInt(fields[1] ?? '', 16)
      const padding = Number.parseInt(fields[2] ?? '', 16)
      const length = Number.parseInt(fields[3] ?? '', 16)
      if (![priming, padding, length].every(Number.isFinite) || length <= 0) return undefined
      return { priming, padding, length }
    }
  }
  return undefined
}
