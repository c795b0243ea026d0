/**
 * Generated audio is 16-bit PCM WAV, whose bitrate is exact: sample rate × channels × 16.
 * Imported files keep their own format and bitrate.
 */
export const DEMO_FORMATS: Record<number, { rate: number; channels: number }> = {
  128000: { rate: 8000, channels: 1 },
  192000: { rate: 12000, channels: 1 },
  320000: { rate: 20000, channels: 1 },
  1411200: { rate: 44100, channels: 2 },
}

export const DEMO_BITRATES = [128000, 192000, 320000, 1411200] as const

export function wavFrames(durationMs: number, rate: number): number {
  return Math.floor((durationMs * rate) / 1000)
}

export function wavSize(durationMs: number, bitrate: number): number {
  const f = DEMO_FORMATS[bitrate]
  return 44 + wavFrames(durationMs, f.rate) * f.channels * 2
}

/** The bitrate to serve: the highest available not above `wanted`, else the lowest available. */
export function chooseBitrate(available: readonly number[], wanted: number): number | undefined {
  if (available.length === 0) return undefined
  const sorted = [...available].sort((a, b) => a - b)
  const fitting = sorted.filter((b) => b <= wanted)
  return fitting.length > 0 ? fitting[fitting.length - 1] : sorted[0]
}
