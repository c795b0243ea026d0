import type { Song } from '@shared/api/models'

/** The song's cover when it is an address an `<img>` may load (data sources send other strings too). */
export function coverUrl(song: Song | null | undefined): string | undefined {
  const url = song?.album?.cover
  return url && /^(https?:|data:image\/)/i.test(url) ? url : undefined
}
