import type { NowPlayingReport } from '@shared/ipc/discord-lrclib'
import { isLocalName, isPublicAddress } from '../net/address'

/** What Discord is asked to show: "Listening to" (activity type 2). */
export interface PresenceActivity {
  type: 2
  name: string
  /** The song's title. */
  details: string
  /** Its artists. */
  state: string
  /** The cover: a public https address only. */
  largeImageKey?: string
  /** The album. */
  largeImageText?: string
  /** Epoch ms: when the song started (now − position) and when it ends (start + duration). */
  startTimestamp?: number
  endTimestamp?: number
}

/** Discord wants 2–128 characters in each text field. */
const field = (text: string) => {
  const trimmed = text.trim().slice(0, 128)
  return trimmed.length >= 2 ? trimmed : trimmed.padEnd(2, '\u200b')
}

/**
 * Whether Discord may show a cover from this address: https only, and a public host (no `cadence-media:`,
 * no `http:`, no loopback, private-network or link-local address, no `localhost` or `.local` name). A
 * name is judged as a name: Discord's own servers fetch it, not this computer.
 */
export function isPublicCoverUrl(address: string | undefined): boolean {
  if (!address || address.length > 2048) return false
  let url: URL
  try {
    url = new URL(address)
  } catch {
    return false
  }
  if (url.protocol !== 'https:' || url.username || url.password) return false
  const host = url.hostname.replace(/^\[|\]$/g, '')
  if (!host || isLocalName(host)) return false
  // An IP literal must be public; a name must have a dot (no single-label intranet names).
  if (/^[\d.]+$/.test(host) || host.includes(':')) return isPublicAddress(host)
  return host.includes('.')
}

/** The activity for a song playing, its times from the position reported at `at` (epoch ms). */
export function buildActivity(report: NowPlayingReport, at: number): PresenceActivity | null {
  const song = report.song
  if (!song || !report.playing) return null
  const activity: PresenceActivity = {
    type: 2,
    name: 'Cadence',
    details: field(song.name || '—'),
    state: field(song.artists || '—'),
  }
  if (song.album) activity.largeImageText = field(song.album)
  if (isPublicCoverUrl(song.cover)) activity.largeImageKey = song.cover
  const start = Math.round(at - Math.max(0, report.positionMs))
  activity.startTimestamp = start
  if (report.durationMs > 0) activity.endTimestamp = start + Math.round(report.durationMs)
  return activity
}

/** The same activity, allowing for the clock's jitter between two reports of one position (2 s). */
export function sameActivity(a: PresenceActivity | null, b: PresenceActivity | null): boolean {
  if (!a || !b) return a === b
  const { startTimestamp: sa, endTimestamp: ea, ...restA } = a
  const { startTimestamp: sb, endTimestamp: eb, ...restB } = b
  const near = (x?: number, y?: number) =>
    x === undefined || y === undefined ? x === y : Math.abs(x - y) < 2000
  return JSON.stringify(restA) === JSON.stringify(restB) && near(sa, sb) && near(ea, eb)
}
