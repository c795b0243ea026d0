import type { Id } from './api/models'

/**
 * A song's link: its address at the data source, the spec's one-song endpoint (`/song/detail?id=`).
 * Used by "Copy link" and in exported M3U8 playlists; `songIdFromLink` reads the id back from any data
 * source's address, so a playlist exported from one address imports at another.
 */
export function songLink(sourceUrl: string | undefined, id: Id): string {
  const query = `song/detail?id=${encodeURIComponent(String(id))}`
  if (!sourceUrl) return `cadence:${query}`
  return `${sourceUrl.replace(/\/+$/, '')}/${query}`
}

export function songIdFromLink(link: string): string | undefined {
  const match = /^(?:https?:\/\/[^\s?#]*\/|cadence:)song\/detail\?(?:[^#\s]*&)?id=([^&#\s]+)/i.exec(
    link.trim(),
  )
  if (!match) return undefined
  try {
    const id = decodeURIComponent(match[1])
    return id || undefined
  } catch {
    return undefined
  }
}
