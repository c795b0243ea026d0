import { shallowRef } from 'vue'
import type { Song } from '@shared/api/models'

/**
 * Rows picked with Ctrl/Cmd- or Shift-click (indices), Ctrl/Cmd+A, cleared with Escape: the menu of a
 * selected row acts on all of them.
 */
export function useSongSelection(songs: () => ReadonlyArray<Song | undefined>) {
  const selected = shallowRef<ReadonlySet<number>>(new Set())
  /** Where a Shift-click range starts. */
  let anchor = 0

  function select(index: number, how: 'toggle' | 'range') {
    const next = new Set(selected.value)
    if (how === 'range') {
      const [from, to] = anchor < index ? [anchor, index] : [index, anchor]
      for (let i = from; i <= to; i++) next.add(i)
    } else {
      if (next.has(index)) next.delete(index)
      else next.add(index)
      anchor = index
    }
    selected.value = next
  }
  function selectAll() {
    selected.value = new Set(songs().map((_, i) => i))
  }
  function clear() {
    selected.value = new Set()
  }
  /** The songs the menu of row `index` acts on: the selection when the row is in it. */
  function menuSongs(index: number): Song[] | undefined {
    if (!selected.value.has(index) || selected.value.size < 2) return undefined
    const list = songs()
    return [...selected.value]
      .sort((a, b) => a - b)
      .map((i) => list[i])
      .filter((song): song is Song => song !== undefined)
  }

  return { selected, select, selectAll, clear, menuSongs }
}
