/** "A, B": the artists of a song or an album as one line, the same in the renderer, the menus and exports. */
export function artistNames(item: { readonly artists: ReadonlyArray<{ readonly name: string }> }): string {
  return item.artists.map((artist) => artist.name).join(', ')
}
