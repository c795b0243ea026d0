import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * Files of one sine split in parts, as an album ripped gaplessly is (each part encoded on its own by
 * ffmpeg: its LAME/Xing header, its edit list, or iTunes' `iTunSMPB` written here), for the gapless
 * tests of the streaming decoder.
 */

export const GAPLESS_RATE = 44100
export const SINE_HZ = 440

export type GaplessFormat = 'mp3' | 'm4a' | 'm4a-itunes'

/** Samples `[from, to)` of a 440 Hz sine (mono, 44.1 kHz) encoded as `format`. */
export function sinePart(from: number, to: number, format: GaplessFormat): Uint8Array {
  const dir = mkdtempSync(join(tmpdir(), 'cadence-gapless-'))
  try {
    const out = join(dir, format === 'mp3' ? 'part.mp3' : 'part.m4a')
    const seconds = Math.ceil(to / GAPLESS_RATE) + 1
    const codec =
      format === 'mp3'
        ? ['-c:a', 'libmp3lame', '-b:a', '128k']
        : // iTunes' files: the gapless info in place of an edit list.
          ['-c:a', 'aac', '-b:a', '128k', ...(format === 'm4a-itunes' ? ['-use_editlist', '0'] : [])]
    execFileSync(
      'ffmpeg',
      [
        ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi'],
        ...['-i', `sine=frequency=${SINE_HZ}:sample_rate=${GAPLESS_RATE}:duration=${seconds}`],
        ...['-af', `atrim=start_sample=${from}:end_sample=${to},asetpts=PTS-STARTPTS`],
        ...['-ac', '1', '-map_metadata', '-1', '-fflags', '+bitexact', ...codec, out],
      ],
      { stdio: 'pipe' },
    )
    const bytes = new Uint8Array(readFileSync(out))
    if (format !== 'm4a-itunes') return bytes
    // ffmpeg's AAC encoder primes 1024 samples; the padding fills the last frame.
    const priming = 1024
    const length = to - from
    const padding = Math.ceil((priming + length) / 1024) * 1024 - priming - length
    return withItunSmpb(bytes, priming, padding, length)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const u32 = (value: number) => [(value >>> 24) & 255, (value >>> 16) & 255, (value >>> 8) & 255, value & 255]
const text = (value: string) => [...new TextEncoder().encode(value)]
const box = (type: string, ...body: number[][]) => {
  const bytes = body.flat()
  return [...u32(8 + bytes.length), ...text(type), ...bytes]
}
const hex = (value: number, digits: number) => value.toString(16).toUpperCase().padStart(digits, '0')

/**
 * `bytes` (an MP4 file whose `moov` box comes last, as ffmpeg writes it) with iTunes' gapless info:
 * `moov/udta/meta/ilst/----` named `com.apple.iTunes` / `iTunSMPB`, as iTunes writes it.
 */
export function withItunSmpb(
  bytes: Uint8Array,
  priming: number,
  padding: number,
  length: number,
): Uint8Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  let at = 0
  let moov = -1
  while (at + 8 <= bytes.length) {
    const size = view.getUint32(at)
    if (String.fromCharCode(...bytes.subarray(at + 4, at + 8)) === 'moov') moov = at
    if (size < 8) throw new Error('an MP4 box this helper cannot read')
    at += size
  }
  if (moov < 0 || moov + view.getUint32(moov) !== bytes.length) throw new Error('moov is not the last box')
  const smpb = ` 00000000 ${hex(priming, 8)} ${hex(padding, 8)} ${hex(length, 16)} 00000000 00000000`
  const udta = box(
    'udta',
    box(
      'meta',
      [0, 0, 0, 0],
      box('hdlr', [0, 0, 0, 0, 0, 0, 0, 0], text('mdirappl'), [0, 0, 0, 0, 0, 0, 0, 0, 0]),
      box(
        'ilst',
        box(
          '----',
          box('mean', [0, 0, 0, 0], text('com.apple.iTunes')),
          box('name', [0, 0, 0, 0], text('iTunSMPB')),
          box('data', [0, 0, 0, 1, 0, 0, 0, 0], text(smpb)),
        ),
      ),
    ),
  )
  const out = new Uint8Array(bytes.length + udta.length)
  out.set(bytes)
  out.set(udta, bytes.length)
  new DataView(out.buffer).setUint32(moov, view.getUint32(moov) + udta.length)
  return out
}
