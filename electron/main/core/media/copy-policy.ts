/**
 * When a played song's copy into the cache stops (docs/playback.md "Offline"): a copy nobody listens to
 * any more is not worth its bandwidth and disk, unless it is nearly there.
 */

/** A copy that has this share of its file carries on: the rest costs at most a third of what came. */
export const KEEP_SHARE = 0.75
/** A copy this close to its end carries on, whatever its share (a short song, most of a long one). */
export const KEEP_REST_BYTES = 2 * 1024 * 1024
/** How long a copy of a song the player left waits for it to come back (a seek, a re-request, Previous). */
export const LEFT_GRACE_MS = 5000
/**
 * How long a copy of a song not played yet waits unread: the next song, opened up to 27 s ahead of its
 * start for a gapless or crossfaded handover, or read for its loudness.
 */
export const AHEAD_GRACE_MS = 45_000
/** Played songs copied at once; beyond that, the one unread the longest stops. */
export const MAX_COPIES = 2

/** What the rule needs to know of one copy (downloads are never among them). */
export interface CopyView {
  /** Media responses reading it now. */
  readers: number
  /** Its song is the player's (playing or paused). */
  current: boolean
  /** Its song was the player's since the copy began (else it was opened ahead of its turn). */
  played: boolean
  /** When it was last read or its song last the player's (ms). */
  heldAt: number
  received: number
  /** The whole file's size (undefined: not known yet). */
  total: number | undefined
}

export interface CopyPlan<T> {
  /** The copies to stop now. */
  stop: T[]
  /** When to look again (ms from now): the first grace that runs out, if any. */
  recheckIn?: number
}

/** A copy is wanted while a response reads it or its song is the player's. */
export const held = (copy: CopyView) => copy.readers > 0 || copy.current

/** Nearly there: finishing costs little next to the bytes that stopping would throw away. */
export function nearlyDone(copy: Pick<CopyView, 'received' | 'total'>): boolean {
  if (copy.total === undefined) return false
  return copy.received >= copy.total * KEEP_SHARE || copy.total - copy.received <= KEEP_REST_BYTES
}

/** Time left (ms) before a copy nobody holds stops; 0 or less: it ran out. */
const graceLeft = (copy: CopyView, now: number) =>
  (copy.played ? LEFT_GRACE_MS : AHEAD_GRACE_MS) - (now - copy.heldAt)

/**
 * Which copies stop at `now`: one nobody reads and whose song is not the player's stops once its grace
 * ran out (5 s for a song the player left, 45 s for one opened ahead), unless it is nearly done. Beyond
 * `MAX_COPIES` copies, the ones unread the longest stop at once (not one nearly done, never one held).
 */
export function planCopies<T extends CopyView>(copies: readonly T[], now: number): CopyPlan<T> {
  const idle = copies.filter((copy) => !held(copy) && !nearlyDone(copy))
  const stop = idle.filter((copy) => graceLeft(copy, now) <= 0)
  const waiting = idle.filter((copy) => !stop.includes(copy)).sort((a, b) => a.heldAt - b.heldAt)
  stop.push(...waiting.splice(0, Math.max(0, copies.length - stop.length - MAX_COPIES)))
  const left = waiting.map((copy) => graceLeft(copy, now))
  return { stop, recheckIn: left.length > 0 ? Math.min(...left) : undefined }
}
