import type { ReplayGain } from '@shared/audio/gain'

/** Kept for the songs resolved lately: the next one's is read as it opens. */
const KEEP = 64
const known = new Map<string, ReplayGain>()
/** The media URLs the queue plays in their album's order (ReplayGain's album mode), as last told. */
const inAlbumOrder = new Map<string, boolean>()

const within = (value: unknown, low: number, high: number): value is number =>
  typeof value === 'number' && value >= low && value <= high

function keep<T>(map: Map<string, T>, url: string, value: T): void {
  map.delete(url)
  map.set(url, value)
  if (map.size > KEEP) map.delete(map.keys().next().value as string)
}

/**
 * Remembers a resolved song's ReplayGain tags (`meta.replayGain`: gains in dB, peaks as ratios, as its
 * source gave them, so checked here) under its media URL, so its output (`gain-stage.ts`) starts at that
 * gain until the song's loudness is measured.
 */
export function rememberReplayGain(url: string | undefined, tags: unknown): void {
  const { trackGain, trackPeak, albumGain, albumPeak } = (tags ?? {}) as Record<string, unknown>
  if (!url || !within(trackGain, -60, 60)) return
  const gain: ReplayGain = { trackGain }
  if (within(trackPeak, 1e-6, 10)) gain.trackPeak = trackPeak
  if (within(albumGain, -60, 60)) {
    gain.albumGain = albumGain
    if (within(albumPeak, 1e-6, 10)) gain.albumPeak = albumPeak
  }
  keep(known, url, gain)
}

export function replayGainFor(url: string): ReplayGain | undefined {
  return known.get(url)
}

/**
 * Says whether the song at `url` plays in its album's order now (`shared/player/album-order.ts`), told
 * by the engine as it loads or prepares it: its gain is then the album's.
 */
export function playInAlbumOrder(url: string, inOrder: boolean): void {
  keep(inAlbumOrder, url, inOrder)
}

export function playsInAlbumOrder(url: string): boolean {
  return inAlbumOrder.get(url) ?? false
}
