/**
 * WAV, the codec without a decoder (the player's `pcm-source.ts` reads it, its loudness worker measures
 * it). Reading WAV as a stream: the header says where the samples are and how they are laid out, so any
 * stretch of the song is one byte range, converted to floats without decoding the rest. The demo data
 * source serves 16-bit PCM WAV; 24-bit, 32-bit integer and 32-bit float are read too.
 */

export interface WavLayout {
  sampleRate: number
  channels: number
  bitsPerSample: number
  float: boolean
  /** Byte offset of the first sample frame. */
  dataOffset: number
  /** Bytes of sample data (to the end of the file when the header leaves it open). */
  dataBytes: number
  /** Bytes per frame (all channels). */
  blockAlign: number
  frames: number
}

const text = (view: DataView, at: number) =>
  String.fromCharCode(view.getUint8(at), view.getUint8(at + 1), view.getUint8(at + 2), view.getUint8(at + 3))

/**
 * The layout from the file's first bytes (64 KB is plenty for any header), or undefined when they are
 * not a WAV file this reader plays. `fileSize` (from Content-Range) bounds an open-ended data chunk.
 */
export function parseWavHeader(bytes: ArrayBuffer, fileSize?: number): WavLayout | undefined {
  const view = new DataView(bytes)
  if (view.byteLength < 12 || text(view, 0) !== 'RIFF' || text(view, 8) !== 'WAVE') return undefined
  let at = 12
  let format: { tag: number; channels: number; rate: number; bits: number; align: number } | undefined
  while (at + 8 <= view.byteLength) {
    const id = text(view, at)
    const size = view.getUint32(at + 4, true)
    const body = at + 8
    if (id === 'fmt ' && body + 16 <= view.byteLength) {
      let tag = view.getUint16(body, true)
      // WAVE_FORMAT_EXTENSIBLE: the real format is the sub-format GUID's first two bytes.
      if (tag === 0xfffe && size >= 40 && body + 26 <= view.byteLength) tag = view.getUint16(body + 24, true)
      format = {
        tag,
        channels: view.getUint16(body + 2, true),
        rate: view.getUint32(body + 4, true),
        align: view.getUint16(body + 12, true),
        bits: view.getUint16(body + 14, true),
      }
    } else if (id === 'data') {
      if (!format) return undefined
      const float = format.tag === 3
      const supported =
        (format.tag === 1 && [16, 24, 32].includes(format.bits)) || (float && format.bits === 32)
      if (
        !supported ||
        format.channels < 1 ||
        format.rate < 1 ||
        format.align !== (format.bits / 8) * format.channels
      )
        return undefined
      const available = fileSize !== undefined ? fileSize - body : Number.POSITIVE_INFINITY
      const declared = size === 0 || size === 0xffffffff ? available : size
      const dataBytes = Math.min(declared, available)
      if (!Number.isFinite(dataBytes)) return undefined
      return {
        sampleRate: format.rate,
        channels: format.channels,
        bitsPerSample: format.bits,
        float,
        dataOffset: body,
        dataBytes,
        blockAlign: format.align,
        frames: Math.floor(dataBytes / format.align),
      }
    }
    at = body + size + (size % 2)
  }
  return undefined
}

/** The byte range (inclusive end, for a Range header) of `count` frames from `frame`. */
export function frameRange(layout: WavLayout, frame: number, count: number): { start: number; end: number } {
  const first = Math.max(0, Math.min(frame, layout.frames))
  const last = Math.min(layout.frames, first + count)
  return {
    start: layout.dataOffset + first * layout.blockAlign,
    end: layout.dataOffset + last * layout.blockAlign - 1,
  }
}

/** Whole frames of `bytes` as one float array per channel. */
export function decodeFrames(layout: WavLayout, bytes: ArrayBuffer): Float32Array[] {
  const view = new DataView(bytes)
  const frames = Math.floor(bytes.byteLength / layout.blockAlign)
  const out = Array.from({ length: layout.channels }, () => new Float32Array(frames))
  const width = layout.bitsPerSample / 8
  for (let f = 0; f < frames; f++) {
    const base = f * layout.blockAlign
    for (let c = 0; c < layout.channels; c++) {
      const at = base + c * width
      let value: number
      if (layout.float) value = view.getFloat32(at, true)
      else if (width === 2) value = view.getInt16(at, true) / 32768
      else if (width === 3) {
        const raw = view.getUint8(at) | (view.getUint8(at + 1) << 8) | (view.getInt8(at + 2) << 16)
        value = raw / 8388608
      } else value = view.getInt32(at, true) / 2147483648
      out[c][f] = value
    }
  }
  return out
}
