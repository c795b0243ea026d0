import * as nodeFs from 'node:fs/promises'
import { dirname } from 'node:path'
import { errorCode } from './fs-port'

const MIB = 1024 * 1024

/**
 * The bounds on every song file main writes from a data source (downloads and played songs' copies), so a
 * source that never ends a body, lies about a size, stalls or trickles costs a bounded amount of disk and
 * time.
 */
export interface MediaLimits {
  /**
   * Most bytes kept of a song whose source did not say its size (`meta.size`); a declared size is its own
   * cap (a byte more is refused). 512 MiB: a whole 80-minute CD as one track in FLAC (about 100–125 KB/s,
   * 470–590 MB) or 3.7 hours of 320 kbit/s MP3. It does not hold 2 hours of 24-bit FLAC (24/48 about
   * 1.3–1.8 GB, 24/96 about 2.5–3 GB): no cap sane for a file of unknown size does.
   */
  unsizedMaxBytes: number
  /** Free space left on the disk: a file that would leave less is not written (checked before and during). */
  reserveBytes: number
  /** A transfer with no byte (or no answer) for this long stops. */
  idleMs: number
  /** A transfer's total deadline: this, plus its size at `minBytesPerSecond`. */
  totalBaseMs: number
  minBytesPerSecond: number
}

export const DEFAULT_MEDIA_LIMITS: MediaLimits = {
  unsizedMaxBytes: 512 * MIB,
  // About what the OS and other programs need to keep working; Cadence never takes the disk's last GiB.
  reserveBytes: 1024 * MIB,
  // The reference server makes a song before its first byte (a few seconds at most on a slow machine).
  idleMs: 30_000,
  // 10 minutes, plus the file at 32 KiB/s (256 kbit/s): a 10 MB song may take 15 minutes, the 512 MiB
  // cap 4.5 hours.
  totalBaseMs: 10 * 60_000,
  minBytesPerSecond: 32 * 1024,
}

/** The free bytes of the file system holding `dir` (for an unprivileged user), or undefined if unknown. */
export type FreeSpaceProbe = (dir: string) => Promise<number | undefined>

/** `fs.statfs` of the folder, or of its nearest existing parent (the cache folder is made on first use). */
export const realFreeSpace: FreeSpaceProbe = async (dir) => {
  for (let path = dir; ; path = dirname(path)) {
    try {
      const stats = await nodeFs.statfs(path)
      return stats.bavail * stats.bsize
    } catch (error) {
      if (errorCode(error) !== 'ENOENT' || dirname(path) === path) return undefined
    }
  }
}

/** The total deadline of a transfer of `bytes` (ms). */
export const totalDeadlineMs = (limits: MediaLimits, bytes: number) =>
  Math.min(MAX_TIMER_MS, limits.totalBaseMs + Math.ceil((bytes / limits.minBytesPerSecond) * 1000))

/** The longest delay a timer takes (a longer one fires at once). */
const MAX_TIMER_MS = 2 ** 31 - 1

/** A deadline for a person: `30 s`, `15 min`. */
export const formatDuration = (ms: number) =>
  ms < 120_000 ? `${Math.round(ms / 1000)} s` : `${Math.round(ms / 60_000)} min`

/** A size for a person: `512 MiB`, `1.5 GiB`. */
export function formatSize(bytes: number): string {
  if (bytes >= 1024 * MIB) return `${+(bytes / (1024 * MIB)).toFixed(1)} GiB`
  if (bytes >= MIB) return `${+(bytes / MIB).toFixed(1)} MiB`
  return `${Math.round(bytes / 1024)} KiB`
}
