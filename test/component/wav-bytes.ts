/**
 * A 16-bit PCM WAV file as the reference data source writes its demo songs: `frames` frames of
 * `channels` channels at `rate` Hz, each sample `value(frame, channel)` (a 16-bit integer).
 */
export function pcmWav(
  rate: number,
  channels: number,
  frames: number,
  value: (frame: number, channel: number) => number,
): ArrayBuffer {
  const bytes = new ArrayBuffer(44 + frames * channels * 2)
  const view = new DataView(bytes)
  const put = (at: number, text: string) =>
    [...text].forEach((c, i) => view.setUint8(at + i, c.charCodeAt(0)))
  put(0, 'RIFF')
  view.setUint32(4, 36 + frames * channels * 2, true)
  put(8, 'WAVE')
  put(12, 'fmt ')
  view.setUint32(16, 16, true)
  view.setUint16(20, 1, true)
  view.setUint16(22, channels, true)
  view.setUint32(24, rate, true)
  view.setUint32(28, rate * channels * 2, true)
  view.setUint16(32, channels * 2, true)
  view.setUint16(34, 16, true)
  put(36, 'data')
  view.setUint32(40, frames * channels * 2, true)
  for (let f = 0; f < frames; f++)
    for (let c = 0; c < channels; c++) view.setInt16(44 + (f * channels + c) * 2, value(f, c), true)
  return bytes
}
