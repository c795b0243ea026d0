/**
 * The song list's one layout, read by its head (SongList.vue) and every row (SongRow.vue) through the CSS
 * variables `songGridStyle` sets on the list, so the two cannot disagree.
 */

/** Every row is exactly this tall (rows and placeholders alike): the virtualiser measures nothing. */
export const SONG_ROW_HEIGHT = 48

/** The columns: #, title, artists, album (when shown), like, duration, ⋯. */
export function songColumns(showAlbum: boolean): string {
  const album = showAlbum ? ['minmax(0, 2fr)'] : []
  return ['40px', 'minmax(0, 3fr)', 'minmax(0, 2fr)', ...album, '40px', '56px', '36px'].join(' ')
}

/** `--song-columns` and `--song-row-height` for the list's head and rows. */
export function songGridStyle(showAlbum: boolean): Record<string, string> {
  return { '--song-columns': songColumns(showAlbum), '--song-row-height': `${SONG_ROW_HEIGHT}px` }
}
