import type { Container, Frame, SeekPoint } from '@shared/audio/codec'
import { ByteWindow } from './byte-window'
import type { CodecFile } from './byte-window'

/**
 * Where a seek starts decoding (`frame-decoder.ts`): a frame at or before a decoder output index. A
 * FLAC file is bisected by byte offset (each frame header says which sample it starts at), an MP3 one
 * estimated (its bit rate or Xing table), an MP4 one looked up (its sample tables).
 */

/**
 * Bisection stops once the frame found is this close before the target (s): the rest is decoded (4 s
 * of FLAC decode in milliseconds; another probe is another round trip to the data source). Each probe
 * aims half of it before the target and reads that much and 1.5 s more, so when it lands there the read
 * goes on from its bytes: a seek is one request.
 */
const CLOSE_ENOUGH_SECONDS = 4
const MAX_PROBES = 16
/** A frame's place is kept about this often in the file (a 45 MB song: about 350 points). */
const LEARN_BYTES = 128 * 1024

export interface Located extends SeekPoint {
  /** The last probe's bytes when they hold the frame found: the read goes on from them. */
  probe?: ByteWindow
}

export function createSeekSearch(container: Container, file: CodecFile, bytesPerSecond: number) {
  const { sampleRate } = container
  /** Bytes asked at once when probing for a seek (see CLOSE_ENOUGH_SECONDS). */
  const probeBytes = Math.max(
    64 * 1024,
    Math.min(1 << 20, Math.round(bytesPerSecond * (CLOSE_ENOUGH_SECONDS + 1.5))),
  )

  /**
   * Where frames were found (FLAC headers say their sample), about every LEARN_BYTES of the file: a
   * later seek starts its search between the nearest of them, so a seek back into what was played, or
   * near a probe's point, is one request.
   */
  const learned: SeekPoint[] = []
  function learn(point: SeekPoint) {
    const index = learned.findIndex((known) => known.byte >= point.byte)
    const before = index < 0 ? learned[learned.length - 1] : learned[index - 1]
    const after = index < 0 ? undefined : learned[index]
    if (before && point.byte - before.byte < LEARN_BYTES) return
    if (after && after.byte - point.byte < LEARN_BYTES) return
    learned.splice(index < 0 ? learned.length : index, 0, point)
  }

  /** The window of the last probe: the read goes on from its bytes when it starts in them. */
  let lastProbe: ByteWindow | undefined

  /** The first frame at or after `from` (its offset and what its header says), probing by ranges. */
  async function frameAfter(from: number): Promise<{ byte: number; frame: Frame } | undefined> {
    const probe = new ByteWindow(file, container.audioEnd)
    lastProbe = probe
    probe.moveTo(from)
    await probe.more(probeBytes)
    for (let p = 0; p < probe.bytes.length; p++) {
      const answer = container.frameAt(probe.bytes, p, probe.eof, undefined, probe.base)
      if (answer === 'more') {
        if (!(await probe.more(probeBytes))) return undefined
        p--
        continue
      }
      // Two frames in a row: a sync pattern inside a frame's data is unlikely to be followed by one.
      if (
        answer &&
        container.frameAt(probe.bytes, p + answer.length, probe.eof, undefined, probe.base) !== undefined
      ) {
        if (answer.sample !== undefined) learn({ byte: probe.base + p, sample: answer.sample })
        return { byte: probe.base + p, frame: answer }
      }
    }
    return undefined
  }

  /** A frame at or before decoder output index `goal`. */
  async function locate(goal: number): Promise<Located> {
    let { low, high } = container.bounds(goal)
    // Bounds that are one point are exact (MP4's tables) or an estimate (MP3's): nothing to narrow.
    for (const point of low.byte === high.byte ? [] : learned) {
      if (point.sample <= goal && point.sample > low.sample) low = point
      if (point.sample > goal && point.sample < high.sample) high = point
    }
    if (goal <= 0) {
      // The song's start: its first frame.
      low = { byte: container.audioStart, sample: 0 }
    } else if (low.byte !== high.byte) {
      for (let probe = 0; probe < MAX_PROBES; probe++) {
        if (goal - low.sample < CLOSE_ENOUGH_SECONDS * sampleRate || high.sample <= low.sample) break
        const share = (goal - low.sample) / (high.sample - low.sample)
        const margin = (CLOSE_ENOUGH_SECONDS / 2) * bytesPerSecond
        const guess = Math.floor(low.byte + share * (high.byte - low.byte) - margin)
        const found = await frameAfter(Math.max(low.byte + 1, guess))
        if (!found || found.frame.sample === undefined || found.byte >= high.byte) break
        if (found.frame.sample > goal) high = { byte: found.byte, sample: found.frame.sample }
        else if (found.byte > low.byte) low = { byte: found.byte, sample: found.frame.sample }
        else break
      }
    } else if (low.byte > container.audioStart) {
      // An estimate (MP3): the first frame from there.
      const found = await frameAfter(low.byte)
      if (found) low = { byte: found.byte, sample: container.sampleAt?.(found.byte) ?? low.sample }
    }
    // The probe that found the frame already holds the bytes from there on.
    const probe = lastProbe
    lastProbe = undefined
    const holds = probe && low.byte >= probe.base && low.byte < probe.base + probe.bytes.length
    return { byte: low.byte, sample: low.sample, probe: holds ? probe : undefined }
  }

  return { learn, locate }
}
