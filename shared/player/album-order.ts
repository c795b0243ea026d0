import type { Song } from '../api/models'
import type { SourcedSong } from './media-url'

/**
 * ReplayGain's album mode: a song the queue plays as part of its album, in the album's order, plays at
 * its album's gain (so the album's quiet and loud songs keep their difference, as on the record); any
 * other at its own track gain. foobar2000's "by playback order" mode and the ReplayGain spec decide so.
 */

/** A song's place on its album: disc, then track; none when its source gives no track number. */
function place(song: Song): [number, number] | undefined {
  if (!song.no) return undefined
  const disc = song.cd === undefined ? 1 : Number.parseInt(song.cd, 10)
  return [Number.isFinite(disc) ? disc : 1, song.no]
}

/** Whether `a` comes before `b` on one album (of one data source). */
function comesBefore(a: Song, b: Song): boolean {
  if (a.album?.id === undefined || a.album.id !== b.album?.id) return false
  if ((a as SourcedSong).sourceId !== (b as SourcedSong).sourceId) return false
  const [pa, pb] = [place(a), place(b)]
  if (!pa || !pb) return false
  return pa[0] < pb[0] || (pa[0] === pb[0] && pa[1] < pb[1])
}

/**
 * Whether `song` plays in its album's order: the song played before it (`before`, in the queue's play
 * order) is of its album and comes before it there, or the song after it (`after`) is of its album and
 * comes after it. A track left out in between (removed from the queue) keeps the order; the album's
 * songs shuffled, or one song of an album among others, do not.
 */
export function inAlbumOrder(before: Song | undefined, song: Song, after: Song | undefined): boolean {
  return (!!before && comesBefore(before, song)) || (!!after && comesBefore(song, after))
}
