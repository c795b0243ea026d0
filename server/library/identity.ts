import { createHash } from 'node:crypto'
import type { Stats } from 'node:fs'
import { open } from 'node:fs/promises'
import type { RawPath } from './paths'

/** Bytes hashed at each end of the audio data. */
const WINDOW = 64 * 1024

interface Span {
  start: number
  end: number
}

/** What is read of the file: a `FileHandle`, or the import's `CachedFile`. */
interface Readable {
  read(buffer: Buffer, offset: number, length: number, position: number): Promise<{ bytesRead: number }>
  stat(): Promise<Stats>
}

async function read(fh: Readable, at: number, length: number): Promise<Buffer> {
  const buf = Buffer.alloc(Math.max(0, length))
  const { bytesRead } = await fh.read(buf, 0, buf.length, at)
  return buf.subarray(0, bytesRead)
}

const MPEG1_L3_KBPS = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320]
const MPEG2_L3_KBPS = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160]
const MPEG_RATES = [[11025, 12000, 8000], [], [22050, 24000, 16000], [44100, 48000, 32000]]

/**
 * The length of an MP3's first frame when it is a Xing/Info (LAME) header frame, else 0: a muxer that
 * rewrites the tags rewrites that frame too (its encoder string and CRC), so it is not part of the identity.
 */
function xingFrameLength(h: Buffer): number {
  if (h.length < 40 || h[0] !== 0xff || (h[1] & 0xe0) !== 0xe0 || ((h[1] >> 1) & 3) !== 1) return 0
  const version = (h[1] >> 3) & 3
  const rate = MPEG_RATES[version]?.[(h[2] >> 2) & 3]
  const kbps = (version === 3 ? MPEG1_L3_KBPS : MPEG2_L3_KBPS)[h[2] >> 4]
  if (!rate || !kbps) return 0
  const text = h.toString('latin1', 4, 40)
  if (!text.includes('Xing') && !text.includes('Info')) return 0
  return Math.floor(((version === 3 ? 144 : 72) * kbps * 1000) / rate) + ((h[2] >> 1) & 1)
}

/** ID3v2 and a Xing/LAME frame at the start; ID3v1 and APEv2 at the end (MP3, AAC). */
async function mpegSpan(fh: Readable, size: number): Promise<Span> {
  let start = 0
  let end = size
  const head = await read(fh, 0, 10)
  if (head.length === 10 && head.toString('latin1', 0, 3) === 'ID3') {
    const tagSize =
      ((head[6] & 0x7f) << 21) | ((head[7] & 0x7f) << 14) | ((head[8] & 0x7f) << 7) | (head[9] & 0x7f)
    start = 10 + tagSize + (head[5] & 0x10 ? 10 : 0)
  }
  start += xingFrameLength(await read(fh, start, 40))
  if (end - start > 128 && (await read(fh, end - 128, 3)).toString('latin1') === 'TAG') end -= 128
  if (end - start > 32) {
    const footer = await read(fh, end - 32, 32)
    if (footer.toString('latin1', 0, 8) === 'APETAGEX') end -= footer.readUInt32LE(12) + 32
  }
  return { start, end }
}

/** FLAC: the frames after the metadata blocks. */
async function flacSpan(fh: Readable, size: number): Promise<Span> {
  let at = 4
  for (let i = 0; i < 1024 && at + 4 <= size; i++) {
    const h = await read(fh, at, 4)
    if (h.length < 4) break
    at += 4 + h.readUIntBE(1, 3)
    if (h[0] & 0x80) break
  }
  return { start: at, end: size }
}

/** RIFF/WAVE and MP4: the `data` chunk, the `mdat` atom. */
async function chunkSpan(fh: Readable, size: number, riff: boolean): Promise<Span | undefined> {
  let at = riff ? 12 : 0
  for (let i = 0; i < 4096 && at + 8 <= size; i++) {
    const h = await read(fh, at, 16)
    if (h.length < 8) break
    const id = h.toString('latin1', 4 * (riff ? 0 : 1), 4 * (riff ? 1 : 2))
    let length = riff ? h.readUInt32LE(4) + 8 : h.readUInt32BE(0)
    let headLength = 8
    if (!riff && length === 1 && h.length >= 16) {
      length = Number(h.readBigUInt64BE(8))
      headLength = 16
    } else if (!riff && length === 0) length = size - at
    if (id === (riff ? 'data' : 'mdat')) return { start: at + headLength, end: Math.min(size, at + length) }
    if (length < 8) break
    at += length + (riff ? length % 2 : 0)
  }
  return undefined
}

/** Ogg: from the first page that carries audio (a granule position other than 0). */
async function oggSpan(fh: Readable, size: number): Promise<Span> {
  let at = 0
  for (let i = 0; i < 64 && at + 27 <= size; i++) {
    const h = await read(fh, at, 27)
    if (h.toString('latin1', 0, 4) !== 'OggS') break
    if (h.readBigInt64LE(6) !== 0n) return { start: at, end: size }
    const segments = await read(fh, at + 27, h[26])
    at += 27 + h[26] + segments.reduce((sum, n) => sum + n, 0)
  }
  return { start: 0, end: size }
}

/**
 * A song's identity, from its audio data and not from its path or tags: a hash of the audio's length and of
 * up to 64 KB at each end of it, the tags left out (ID3v2/ID3v1/APE for MP3 and AAC, the metadata blocks of
 * FLAC, the chunks around WAV's `data`, the atoms around MP4's `mdat`, Ogg's header pages). So a file
 * renamed, moved or retagged keeps its identity; a re-encoded one is a new song. Only the two windows are
 * read, whatever the file's size.
 */
export async function contentKey(path: RawPath, mime: string, file?: Readable): Promise<string> {
  if (file) return keyOf(file, mime)
  const fh = await open(path, 'r')
  try {
    return await keyOf(fh, mime)
  } finally {
    await fh.close()
  }
}

async function keyOf(fh: Readable, mime: string): Promise<string> {
  const size = (await fh.stat()).size
  let span: Span | undefined
  if (mime === 'audio/mpeg' || mime === 'audio/aac') span = await mpegSpan(fh, size)
  else if (mime === 'audio/flac') span = await flacSpan(fh, size)
  else if (mime === 'audio/wav') span = await chunkSpan(fh, size, true)
  else if (mime === 'audio/mp4') span = await chunkSpan(fh, size, false)
  else if (mime === 'audio/ogg') span = await oggSpan(fh, size)
  if (!span || span.start >= span.end || span.end > size) span = { start: 0, end: size }
  const length = span.end - span.start
  const hash = createHash('sha256').update(`${mime}:${length}:`)
  hash.update(await read(fh, span.start, Math.min(WINDOW, length)))
  if (length > WINDOW) {
    const tail = Math.max(span.start + WINDOW, span.end - WINDOW)
    hash.update(await read(fh, tail, span.end - tail))
  }
  return hash.digest('hex').slice(0, 32)
}
