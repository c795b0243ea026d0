/**
 * Choosing the bitrate (`br` of `/song/detail`) from a song's `privilege` and the user's preference.
 */

/** The quality levels a user can prefer, lowest first, with the bitrate each stands for (bit/s). */
export const QUALITY_BITRATES = {
  standard: 128000,
  higher: 192000,
  exhigh: 320000,
  lossless: 999000,
} as const

export type QualityName = keyof typeof QUALITY_BITRATES
export const QUALITY_NAMES = Object.keys(QUALITY_BITRATES) as QualityName[]

/** Any bitrate at or above this is lossless (999000 by convention, 1411200 for CD audio, more for hi-res). */
export const LOSSLESS_MIN_BITRATE = QUALITY_BITRATES.lossless

/** The spec's default `br` for `/song/detail`. */
export const DEFAULT_BITRATE = QUALITY_BITRATES.exhigh

export type BitratePrivilege = { bitrates?: readonly number[] | null; maxBitrate?: number | null }

function isBitrate(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0
}

/** The preference as a bitrate; unknown names and invalid numbers fall back to `DEFAULT_BITRATE`. */
export function preferredBitrate(preferred: QualityName | number | undefined): number {
  if (typeof preferred === 'number') return isBitrate(preferred) ? preferred : DEFAULT_BITRATE
  if (typeof preferred === 'string' && Object.hasOwn(QUALITY_BITRATES, preferred)) {
    return QUALITY_BITRATES[preferred]
  }
  return DEFAULT_BITRATE
}

/**
 * The bitrate to request: the best available one not above the preference, where a lossless preference
 * accepts any lossless bitrate. If every available bitrate is above the preference, the lowest one. With
 * no usable `bitrates`, `maxBitrate` capped at the preference; with neither, the preference itself.
 */
export function chooseBitrate(
  privilege: BitratePrivilege | null | undefined,
  preferred: QualityName | number = 'exhigh',
): number {
  const wanted = preferredBitrate(preferred)
  const ceiling = wanted >= LOSSLESS_MIN_BITRATE ? Number.POSITIVE_INFINITY : wanted
  const available = Array.isArray(privilege?.bitrates) ? privilege.bitrates.filter(isBitrate) : []
  if (available.length > 0) {
    let best = -1
    let lowest = Number.POSITIVE_INFINITY
    for (const bitrate of available) {
      if (bitrate <= ceiling && bitrate > best) best = bitrate
      if (bitrate < lowest) lowest = bitrate
    }
    return best > 0 ? best : lowest
  }
  const max = privilege?.maxBitrate
  if (isBitrate(max)) return Math.min(max, ceiling)
  return wanted
}

/** The quality level a bitrate belongs to (the highest level it reaches; below 128000 is standard). */
export function qualityOfBitrate(bitrate: number): QualityName {
  let name: QualityName = 'standard'
  for (const level of QUALITY_NAMES) {
    if (bitrate >= QUALITY_BITRATES[level]) name = level
  }
  return name
}
