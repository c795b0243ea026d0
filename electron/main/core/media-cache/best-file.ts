import type { CacheEntry, CacheKey } from './cache-index'
import { keyString } from './cache-index'

/**
 * The indexed file to play for a song: the asked bitrate, else a download at any bitrate (the highest),
 * else, when `anyBitrate` (offline), any cached one (the highest).
 */
export function bestFile(
  entries: ReadonlyMap<string, CacheEntry>,
  key: CacheKey,
  { anyBitrate = false } = {},
): CacheEntry | undefined {
  const exact = entries.get(keyString(key))
  if (exact) return exact
  let best: CacheEntry | undefined
  for (const e of entries.values()) {
    if (e.songId !== key.songId || e.sourceId !== key.sourceId) continue
    if (!e.pinned && !anyBitrate) continue
    if (!best || (e.pinned && !best.pinned) || (e.pinned === best.pinned && e.bitrate > best.bitrate))
      best = e
  }
  return best
}
